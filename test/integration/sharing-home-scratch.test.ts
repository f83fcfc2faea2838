/**
 * `push` and `export` write the records' objects from a scratch directory under `<home>/tmp`. A home
 * where it cannot be made (read-only, or a file at `tmp`) was INTERNAL ("unexpected failure: EACCES:
 * mkdir"); it is WRITE_FAILED naming the directory.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIn, okIn } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the home's scratch directory cannot be made", () => {
  it('export: WRITE_FAILED naming it, not INTERNAL', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-home-');
    const out = tempDir('agentgate-out-');
    dirs.push(ws, home, out);
    okIn(ws, home, ['before', '--run', 'r']);
    writeFiles(ws, { 'x.txt': 'x\n' });
    okIn(ws, home, ['after', '--run', 'r', '--iteration', '1']);
    writeFileSync(join(home, 'tmp'), '');
    const res = cliIn(ws, home, ['export', '-o', join(out, 'runs.bundle')]);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    const error = (JSON.parse(res.stdout) as { error: { code: string; details: { path: string } } }).error;
    expect(error.code).toBe('WRITE_FAILED');
    expect(error.details.path.startsWith(join(home, 'tmp'))).toBe(true);
  });
});
