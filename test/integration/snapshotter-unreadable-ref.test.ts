/**
 * A loose file at the iteration's ref that git cannot read as a ref, planted before the capture: a
 * FIFO held `after` until gitTimeoutMs (2 minutes), then GIT_TIMEOUT; a file left empty or garbled
 * let `after` commit and then fail GIT_FAILED ("reference broken") with the agent's work staged.
 * Both are UNSAFE_WORKSPACE at once now, naming the ref, before anything is committed or staged,
 * and the capture goes through once the file is removed. `iterate` refuses before its agent runs.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, okIn } from '../helpers/cli.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const REF = 'refs/agentgate/runs/r/iteration-1';

/** A home whose git calls time out after 10 s: a FIFO read by git then fails instead of holding the test. */
function homeWithShortTimeout(): string {
  const home = tempDir('agentgate-home-');
  writeFileSync(join(home, 'config.yaml'), 'gitTimeoutMs: 10000\n');
  return home;
}

/** Plants `kind` at the iteration's loose ref file. */
function plant(ws: string, kind: 'fifo' | 'empty' | 'garbled'): string {
  const file = join(ws, '.git', REF);
  git(ws, ['update-ref', REF, 'HEAD']);
  rmSync(file);
  if (kind === 'fifo') execFileSync('mkfifo', [file]);
  else writeFileSync(file, kind === 'empty' ? '' : 'not a ref at all\n');
  return file;
}

describe('an unreadable file at the iteration ref', () => {
  for (const kind of ['fifo', 'empty', 'garbled'] as const) {
    it(`after with the ref file ${kind}: UNSAFE_WORKSPACE at once, nothing committed or staged; then the capture`, () => {
      const ws = repoWithCommit({ 'a.txt': 'a\n' });
      const home = homeWithShortTimeout();
      okIn(ws, home, ['before', '--run', 'r']);
      const start = head(ws);
      const file = plant(ws, kind);
      writeFiles(ws, { 'a.txt': 'b\n' });
      const res = cliIn(ws, home, ['after', '--run', 'r', '--iteration', '1']);
      expect(res.status, res.stdout + res.stderr).toBe(1);
      expect(res.json()).toMatchObject({ error: { code: 'UNSAFE_WORKSPACE', details: { ref: REF } } });
      expect(head(ws)).toBe(start);
      expect(git(ws, ['diff', '--cached', '--name-only'])).toBe('');

      rmSync(file);
      expect(okIn(ws, home, ['after', '--run', 'r', '--iteration', '1'])).toMatchObject({ filesChanged: 1 });
      expect(okIn(ws, home, ['verify', '--run', 'r'])).toMatchObject({ ok: true });
    });
  }

  it('iterate with the ref file a FIFO: UNSAFE_WORKSPACE before the agent runs', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = homeWithShortTimeout();
    plant(ws, 'fifo');
    const res = cliIn(ws, home, [
      'iterate',
      '--run',
      'r',
      '--iteration',
      '1',
      '--',
      'sh',
      '-c',
      'echo ran > ran.txt',
    ]);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    expect(res.json()).toMatchObject({ error: { code: 'UNSAFE_WORKSPACE', details: { ref: REF } } });
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });
});
