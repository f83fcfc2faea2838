/**
 * Issue 28 item 7: opening a store keeps what git said about the workspace (probe.json), so that
 * an agent hook starts no `rev-parse` or `git config` per event, and every change that could
 * change git's answer is seen on the next open.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { gitCallCount } from '../../src/git/runner.js';
import { storeTreePaths } from '../helpers/checkpoints.js';
import { git, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
let userHome: string;

beforeEach(() => {
  userHome = tempDir('agentgate-cp-userhome-');
  process.env.HOME = userHome;
  delete process.env.XDG_CONFIG_HOME;
});
afterEach(() => {
  vi.useRealTimers();
  process.env.HOME = saved.HOME;
  if (saved.XDG_CONFIG_HOME === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME;
});

/** An answer derived from an entry changed in the last 2 s is not kept: the clock is moved on instead of waiting. */
function later(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000);
}

/** The answers are kept once a checkpoint is written (a command that fails or only reads writes nothing). */
async function keepAnswers(ws: string, home: string): Promise<void> {
  await (await Checkpoints.open(ws, { home })).track('answers kept');
}

/** Git processes one `Checkpoints.open` starts. */
async function openCost(ws: string, home: string): Promise<{ cp: Checkpoints; processes: number }> {
  const before = gitCallCount();
  const cp = await Checkpoints.open(ws, { home });
  return { cp, processes: gitCallCount() - before };
}

describe('the workspace probe kept per store (probe.json)', () => {
  it('an existing store opens without a git process once its answers are kept, and captures the same', async () => {
    writeFileSync(join(userHome, '.gitconfig'), '[core]\n\texcludesFile = ~/my-ignore\n');
    writeFileSync(join(userHome, 'my-ignore'), '*.secret\n');
    const ws = repoWithCommit({ 'README.md': 'hi\n', '.gitignore': 'build/\n' });
    writeFiles(ws, { 'a.secret': 'token', 'build/out.js': 'x', 'b.txt': 'keep' });
    const home = tempDir('agentgate-cp-home-');
    const first = await openCost(ws, home);
    expect(first.processes).toBeGreaterThan(0);
    const t1 = await first.cp.track('one');
    later();
    await keepAnswers(ws, home);
    expect(existsSync(join(first.cp.location.dir, 'probe.json'))).toBe(true);
    const hit = await openCost(ws, home);
    expect(hit.processes).toBe(0);
    writeFiles(ws, { 'c.txt': 'new', 'c.secret': 'token' });
    const t2 = await hit.cp.track('two');
    expect(storeTreePaths(hit.cp, t1.hash)).toEqual(['.gitignore', 'README.md', 'b.txt']);
    expect(storeTreePaths(hit.cp, t2.hash)).toEqual(['.gitignore', 'README.md', 'b.txt', 'c.txt']);
  });

  it('a plain directory that becomes a repository: the next capture follows its info/exclude', async () => {
    const ws = tempDir('agentgate-cp-plain-');
    writeFiles(ws, { 'a.txt': 'a', 'local.txt': 'mine' });
    const home = tempDir('agentgate-cp-home-');
    await (await Checkpoints.open(ws, { home })).track('plain');
    later();
    await keepAnswers(ws, home);
    expect((await openCost(ws, home)).processes).toBe(0);
    initRepo(ws);
    writeFileSync(join(ws, '.git', 'info', 'exclude'), 'local.txt\n');
    const { cp, processes } = await openCost(ws, home);
    expect(processes).toBeGreaterThan(0);
    const t = await cp.track('repo');
    expect(storeTreePaths(cp, t.hash)).toEqual(['a.txt']);
  });

  it('a directory above the workspace that becomes a repository is seen: the workspace is then its subdirectory', async () => {
    const parent = tempDir('agentgate-cp-parent-');
    const ws = join(parent, 'project');
    mkdirSync(ws);
    writeFiles(ws, { 'a.txt': 'a' });
    const home = tempDir('agentgate-cp-home-');
    await (await Checkpoints.open(ws, { home })).track('plain');
    later();
    await keepAnswers(ws, home);
    expect((await openCost(ws, home)).processes).toBe(0);
    initRepo(parent);
    const cp = await Checkpoints.open(ws, { home });
    expect(cp.workspace).toBe(parent);
  });

  it("the user's core.excludesFile set after the answers were kept is honoured on the next capture", async () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n' });
    const home = tempDir('agentgate-cp-home-');
    await (await Checkpoints.open(ws, { home })).track('one');
    later();
    await keepAnswers(ws, home);
    writeFileSync(join(userHome, '.gitconfig'), '[core]\n\texcludesFile = ~/my-ignore\n');
    writeFileSync(join(userHome, 'my-ignore'), '*.secret\n');
    writeFiles(ws, { 'a.secret': 'token', 'b.txt': 'keep' });
    const cp = await Checkpoints.open(ws, { home });
    const t = await cp.track('two');
    expect(storeTreePaths(cp, t.hash)).toEqual(['README.md', 'b.txt']);
  });

  it("the user's core.excludesFile changed in a file their global config includes is honoured on the next capture", async () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n' });
    const home = tempDir('agentgate-cp-home-');
    writeFileSync(join(userHome, '.gitconfig'), '[include]\n\tpath = ~/inc.cfg\n');
    writeFileSync(join(userHome, 'inc.cfg'), '[core]\n\texcludesFile = ~/ign1\n');
    writeFileSync(join(userHome, 'ign1'), '*.one\n');
    writeFileSync(join(userHome, 'ign2'), '.env\n');
    await (await Checkpoints.open(ws, { home })).track('one');
    later();
    await keepAnswers(ws, home);
    writeFileSync(join(userHome, 'inc.cfg'), '[core]\n\texcludesFile = ~/ign2\n');
    writeFiles(ws, { '.env': 'API_KEY=s\n', 'b.txt': 'keep' });
    const cp = await Checkpoints.open(ws, { home });
    const t = await cp.track('two');
    expect(storeTreePaths(cp, t.hash)).toEqual(['README.md', 'b.txt']);
  });

  it('a global config git cannot read (a circular include) sets nothing: track goes on, as before and after do', async () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n' });
    writeFileSync(join(userHome, '.gitconfig'), '[include]\n\tpath = ~/loop.cfg\n');
    writeFileSync(join(userHome, 'loop.cfg'), '[include]\n\tpath = ~/.gitconfig\n');
    writeFiles(ws, { 'b.txt': 'keep' });
    const cp = await Checkpoints.open(ws, { home: tempDir('agentgate-cp-home-') });
    const t = await cp.track('one');
    expect(storeTreePaths(cp, t.hash)).toEqual(['README.md', 'b.txt']);
  });

  it('core.worktree set after the answers were kept is refused as before (UNSAFE_WORKSPACE)', async () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n' });
    const home = tempDir('agentgate-cp-home-');
    await (await Checkpoints.open(ws, { home })).track('one');
    later();
    await keepAnswers(ws, home);
    expect((await openCost(ws, home)).processes).toBe(0);
    git(ws, ['config', 'core.worktree', tempDir()]);
    await expect(Checkpoints.open(ws, { home })).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
  });

  it('a repository config with include directives is never kept (an included file has no stamp)', async () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n' });
    git(ws, ['config', 'include.path', join(tempDir(), 'extra')]);
    const home = tempDir('agentgate-cp-home-');
    await (await Checkpoints.open(ws, { home })).track('one');
    later();
    await keepAnswers(ws, home);
    expect((await openCost(ws, home)).processes).toBeGreaterThan(0);
  });

  it('a probe.json naming another root is not taken: the workspace stays the directory given', async () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n' });
    const home = tempDir('agentgate-cp-home-');
    const cp = await Checkpoints.open(ws, { home });
    await cp.track('one');
    later();
    await keepAnswers(ws, home);
    const file = join(cp.location.dir, 'probe.json');
    const record = JSON.parse(readFileSync(file, 'utf8')) as {
      probe: { root: string; excludesFile: string };
    };
    const elsewhere = repoWithCommit({ 'other.txt': 'x\n' });
    record.probe.root = elsewhere;
    record.probe.excludesFile = join(elsewhere, '.git', 'info', 'exclude');
    writeFileSync(file, JSON.stringify(record));
    const { cp: reopened, processes } = await openCost(ws, home);
    expect(reopened.workspace).toBe(ws);
    expect(processes).toBeGreaterThan(0);
  });
});
