/**
 * One maximum for every duration (issue 26, item 8): Node's timers fire after 1 ms past 2^31-1 ms,
 * so a longer timeout in an option, the config or a record is refused, never obeyed at once.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS } from '../../types/duration.js';
import { GateResult } from '../../types/gate.js';
import { TravellingGate } from '../../types/gate-record.js';
import { loadConfig } from '../../src/store/config.js';
import { runGit } from '../../src/git/runner.js';
import { withLock } from '../../src/fs/lock.js';
import { expectCode } from '../helpers/codes.js';
import { gatedRun, quiet } from '../helpers/gates.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';
import { tempHome } from '../helpers/store-fixtures.js';

const TOO_LONG = MAX_DURATION_MS + 1;

describe('every duration has one maximum, 2^31-1 ms', () => {
  it('config: gitTimeoutMs, lockTimeoutMs and hooks.timeoutMs past it are CONFIG_INVALID', async () => {
    const home = tempHome();
    try {
      for (const yaml of [
        'gitTimeoutMs: 4000000000',
        'lockTimeoutMs: 2147483648',
        'hooks:\n  timeoutMs: 9999999999',
      ]) {
        writeFileSync(join(home, 'config.yaml'), `${yaml}\n`);
        await expectCode(loadConfig({ home }), 'CONFIG_INVALID');
      }
      writeFileSync(join(home, 'config.yaml'), `gitTimeoutMs: ${MAX_DURATION_MS}\n`);
      expect((await loadConfig({ home })).gitTimeoutMs).toBe(MAX_DURATION_MS);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("records: a verdict's timeoutMs or durationMs past it does not load or travel", () => {
    const shape = { timeoutMs: TOO_LONG };
    for (const schema of [GateResult, TravellingGate]) {
      const issues = schema.safeParse(shape).error?.issues ?? [];
      expect(issues.some((i) => i.path.join('.') === 'timeoutMs')).toBe(true);
      const long = schema.safeParse({ durationMs: TOO_LONG }).error?.issues ?? [];
      expect(long.some((i) => i.path.join('.') === 'durationMs')).toBe(true);
    }
  });

  it('options: gate --timeout 2147484 is a usage error; nothing runs', () => {
    const dir = tempDir();
    const res = runCli([
      '-C',
      dir,
      '--home',
      join(dir, 'home'),
      'gate',
      '--run',
      'r',
      '--name',
      't',
      '--timeout',
      '2147484',
      '--json',
      '--',
      'true',
    ]);
    expect(res.status).toBe(2);
    expect(res.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', details: { max: 2147483 } } });
  });

  it('library: a gate, git and lock timeout past it is INVALID_ARGUMENT, not a kill after 1 ms', async () => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'a\n' }]);
    await expectCode(
      gates.run(dir, { runId: 'r1', name: 't', command: ['true'], timeoutMs: TOO_LONG, echo: quiet() }),
      'INVALID_ARGUMENT',
    );
    expect((await gates.list({ runId: 'r1' })).results).toEqual([]);
    const repo = repoWithCommit();
    await expectCode(
      runGit({ cwd: repo, timeoutMs: 4_000_000_000 }, ['rev-parse', 'HEAD']),
      'INVALID_ARGUMENT',
    );
    await expectCode(
      withLock(join(tempDir(), 'x.lock'), { timeoutMs: TOO_LONG, purpose: 'test' }, async () => undefined),
      'INVALID_ARGUMENT',
    );
  });
});
