/**
 * A file where the home keeps a directory of records is a damaged store: STORE_CORRUPT naming it, as
 * `list` says of `<home>/snapshots` and `runs` of `<home>/runs`. `gate list` of `<home>/gates` was
 * INTERNAL ("unexpected failure: ENOTDIR: scandir"), and `verify --all` took `<home>/anchors` for no
 * anchors at all and passed.
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

describe('a file in place of a store directory', () => {
  it.each([
    ['gates', ['gate', 'list']],
    ['snapshots', ['list']],
    ['runs', ['runs']],
    ['anchors', ['verify', '--all']],
  ])('<home>/%s: STORE_CORRUPT naming it', (name, args) => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-home-');
    dirs.push(ws, home);
    if (name === 'anchors') {
      okIn(ws, home, ['before', '--run', 'r']);
      writeFiles(ws, { 'x.txt': 'x\n' });
      okIn(ws, home, ['after', '--run', 'r', '--iteration', '1']);
    }
    writeFileSync(join(home, name), '');
    const res = cliIn(ws, home, args);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    const error = (JSON.parse(res.stdout) as { error: { code: string; details: { path: string } } }).error;
    expect(error.code).toBe('STORE_CORRUPT');
    expect(error.details.path).toBe(join(home, name));
  });
});

// Node's recursive mkdir tried again for ever where procfs answers ENOENT: the CLI spun at full CPU.
describe.runIf(process.platform === 'linux')('a home where no directory can be made (/dev/fd)', () => {
  it('before is WRITE_FAILED at once, not a hang', () => {
    const ws = repoWithCommit();
    dirs.push(ws);
    const res = cliIn(ws, '/dev/fd/agentgate-home', ['before', '--run', 'r']);
    expect(res.status).toBe(1);
    expect(res.json()).toMatchObject({ error: { code: 'WRITE_FAILED' } });
  });
});
