/**
 * A checkpoint's own ref (not a marker) that git cannot read: a loose file under
 * `refs/checkpoints/` left empty or garbled (a power loss while it was written, a store tampered
 * with), named as git refuses, or no regular file at all (a FIFO, which git would wait on for ever;
 * a symbolic link). git's listing skips the unreadable ones with a warning, so `list` hid them while
 * `gc` (and the packing after a track) failed with GIT_FAILED for ever, and a FIFO made every
 * command hang until gitTimeoutMs. Now reads are STORE_CORRUPT, and track sets the ref aside and
 * goes on with every other checkpoint (src/checkpoints/recovery.ts).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../helpers/codes.js';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const BREAKS: Array<[string, string, (file: string) => void]> = [
  ['an empty file', 'torn', (file) => writeFileSync(file, '')],
  ['garbage', 'garbled', (file) => writeFileSync(file, 'garbage\n')],
  ['a name git refuses', 'bad..name', (file) => writeFileSync(file, `${'1'.repeat(40)}\n`)],
  ['a FIFO', 'fifo', (file) => execFileSync('mkfifo', [file])],
  ['a symbolic link', 'link', (file) => symlinkSync('/dev/null', file)],
];

describe('a checkpoint ref that git cannot read', () => {
  it.each(BREAKS)(
    '%s: reads and gc are STORE_CORRUPT (never a hang, never GIT_FAILED); track sets it aside and keeps the rest',
    async (_what, name, breakRef) => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      const home = tempDir('agentgate-cp-broken-ref-');
      const cp = await openCheckpoints(ws, { home, gitTimeoutMs: 5000 });
      const a = await cp.track('A');
      writeFiles(ws, { 'a.txt': 'two\n' });
      await cp.track('B');
      breakRef(join(cp.location.gitDir, 'refs', 'checkpoints', name));

      await expectCode(cp.list(), 'STORE_CORRUPT');
      await expectCode(cp.gc(), 'STORE_CORRUPT');
      await expectCode(cp.restore(a.hash), 'STORE_CORRUPT');
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('two\n');

      writeFiles(ws, { 'a.txt': 'three\n' });
      const c = await cp.track('C');
      expect(c.recovered).toMatch(/damaged-/);
      expect(c.upkeepError).toBeUndefined();
      expect(readdirSync(join(cp.location.gitDir, 'refs', 'checkpoints'))).not.toContain(name);
      expect((await cp.list()).map((e) => e.label)).toEqual(['C', 'B', 'A']);
      const gc = await cp.gc();
      expect(gc.kept).toBeGreaterThanOrEqual(3);
      await cp.restore(a.hash);
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    },
  );

  it('through the CLI: gc --json is STORE_CORRUPT, exit 1', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-broken-ref-cli-');
    const env = { AGENTGATE_HOME: home };
    expect(runCli(['checkpoint', 'track', '-C', ws], { env }).status).toBe(0);
    const checkpoints = join(home, 'checkpoints');
    const [project] = readdirSync(checkpoints);
    const [wt] = readdirSync(join(checkpoints, project ?? ''));
    const refs = join(checkpoints, project ?? '', wt ?? '', 'git', 'refs', 'checkpoints');
    writeFileSync(join(refs, 'torn'), '');
    const gc = runCli(['checkpoint', 'gc', '--json', '-C', ws], { env });
    expect([gc.status, (gc.json() as { error: { code: string } }).error.code]).toEqual([1, 'STORE_CORRUPT']);
  });
});
