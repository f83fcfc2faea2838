/** Issue 11 item 21: the user's global ignore file, and files ignored after they were captured. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCheckpoints, storeTreePaths } from '../helpers/checkpoints.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

const VARS = ['HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM'];
const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
let home: string;

beforeEach(() => {
  home = tempDir('agentgate-cp-userhome-');
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

describe("checkpoints honour the user's global core.excludesFile, and only that", () => {
  it('reads core.excludesFile from ~/.gitconfig (with ~/ expanded)', async () => {
    writeFileSync(
      join(home, '.gitconfig'),
      '[core]\n\texcludesFile = ~/my-ignore\n[user]\n\tname = ignored\n',
    );
    writeFileSync(join(home, 'my-ignore'), '*.secret\n');
    const ws = tempDir('agentgate-cp-global-');
    writeFiles(ws, { 'a.secret': 'token', 'b.txt': 'keep' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t = await cp.track();
    expect(storeTreePaths(cp, t.hash)).toEqual(['b.txt']);
  });

  it("falls back to git's default $XDG_CONFIG_HOME/git/ignore; ~/.gitconfig wins over the XDG config", async () => {
    const xdg = join(home, 'xdg');
    mkdirSync(join(xdg, 'git'), { recursive: true });
    process.env.XDG_CONFIG_HOME = xdg;
    writeFileSync(join(xdg, 'git', 'ignore'), '*.log\n');
    const ws = tempDir('agentgate-cp-xdg-');
    writeFiles(ws, { 'debug.log': 'x', 'b.txt': 'keep' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    expect(storeTreePaths(cp, (await cp.track()).hash)).toEqual(['b.txt']);

    writeFileSync(join(xdg, 'git', 'config'), '[core]\n\texcludesFile = ~/xdg-named\n');
    writeFileSync(join(home, 'xdg-named'), '*.txt\n');
    writeFileSync(join(home, '.gitconfig'), '[core]\n\texcludesFile = ~/home-named\n');
    writeFileSync(join(home, 'home-named'), '*.tmp\n');
    writeFiles(ws, { 'c.tmp': 'x' });
    const again = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    expect(storeTreePaths(again, (await again.track()).hash)).toEqual(['b.txt', 'debug.log']);
  });
});

describe("checkpoints read the user's core.excludesFile where run snapshots do", () => {
  it('from $GIT_CONFIG_SYSTEM and $GIT_CONFIG_GLOBAL, and not from ~/.gitconfig when $GIT_CONFIG_GLOBAL names another file', async () => {
    const cfg = tempDir('agentgate-cp-cfg-');
    writeFileSync(join(cfg, 'sys-ignore'), 'sys.secret\n');
    writeFileSync(join(cfg, 'system'), `[core]\n\texcludesFile = ${join(cfg, 'sys-ignore')}\n`);
    writeFileSync(join(home, '.gitconfig'), '[core]\n\texcludesFile = ~/home-ignore\n');
    writeFileSync(join(home, 'home-ignore'), 'home.secret\n');
    const ws = tempDir('agentgate-cp-sysglobal-');
    writeFiles(ws, { 'sys.secret': 'a', 'home.secret': 'b', 'glob.secret': 'c', 'keep.txt': 'd' });
    delete process.env.GIT_CONFIG_NOSYSTEM;
    process.env.GIT_CONFIG_SYSTEM = join(cfg, 'system');
    process.env.GIT_CONFIG_GLOBAL = '/dev/null';
    const sys = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    expect(storeTreePaths(sys, (await sys.track()).hash)).toEqual(['glob.secret', 'home.secret', 'keep.txt']);

    writeFileSync(join(cfg, 'glob-ignore'), 'glob.secret\n');
    writeFileSync(join(cfg, 'global'), `[core]\n\texcludesFile = ${join(cfg, 'glob-ignore')}\n`);
    process.env.GIT_CONFIG_GLOBAL = join(cfg, 'global');
    const glob = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    expect(storeTreePaths(glob, (await glob.track()).hash)).toEqual([
      'home.secret',
      'keep.txt',
      'sys.secret',
    ]);
  });
});

describe('a file captured earlier and ignored now', () => {
  it('is not listed as changed by patch, diff or diff-full, and restore leaves it alone', async () => {
    const ws = tempDir('agentgate-cp-nowignored-');
    writeFiles(ws, { 'build.out': 'artifact v1', 'src.txt': 'v1' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t1 = await cp.track('before ignore');
    writeFiles(ws, { '.gitignore': 'build.out\n', 'build.out': 'artifact v2' });
    const patch = await cp.patch(t1.hash);
    expect(patch.files).toEqual([join(ws, '.gitignore')]);
    expect(await cp.diff(t1.hash)).not.toContain('diff --git a/build.out');
    expect((await cp.diffFull(t1.hash)).map((d) => d.file)).toEqual(['.gitignore']);
    const r = await cp.restore(t1.hash);
    expect(r.leftAlone).toContain(join(ws, 'build.out'));
  });
});
