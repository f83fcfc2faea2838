/**
 * An agent under `iterate` that arms the repository during its own turn. The after phase must open
 * and check the repository again exactly as a separate `after` process does: no planted program may
 * run (the marker directory stays empty), no file outside the workspace may enter the after commit
 * or the patch, and a repository that a separate `after` refuses makes `iterate` fail with the same
 * code, with only the before state recorded.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentgateError } from '../../src/errors.js';
import { git, oracleEnv, repoWithCommit, tempDir } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

const SECRET = 'TOP-SECRET-7f3a91';

/** A directory outside the workspace with the marker programs and an empty marker directory. */
function armoury(): { bin: string; markers: string } {
  const root = tempDir('agentgate-armoury-');
  const bin = join(root, 'bin');
  const markers = join(root, 'markers');
  mkdirSync(join(bin, 'hooks'), { recursive: true });
  mkdirSync(markers);
  // mark-cat NAME: a filter or textconv that records that it ran and passes its input through.
  writeFileSync(join(bin, 'mark-cat'), `#!/bin/sh\ntouch "${markers}/$1"\nexec cat\n`);
  writeFileSync(join(bin, 'mark-exit'), `#!/bin/sh\ntouch "${markers}/$1"\nexit 0\n`);
  chmodSync(join(bin, 'mark-cat'), 0o755);
  chmodSync(join(bin, 'mark-exit'), 0o755);
  return { bin, markers };
}

/** Every object in the repository (loose and packed), contents included. */
function allObjects(dir: string): string {
  return execFileSync('git', ['cat-file', '--batch-all-objects', '--batch'], {
    cwd: dir,
    env: oracleEnv(),
    maxBuffer: 64 * 1024 * 1024,
  }).toString('latin1');
}

/** The agent: a shell script run as argv (sh -c), in the workspace. */
function agent(script: string): readonly string[] {
  return ['sh', '-c', `set -e\n${script}`];
}

/** The blob id git gives the text of `file`'s name (what a link to it holds). */
function blobOf(dir: string, name: string): string {
  return git(dir, ['hash-object', '-w', '--stdin'], { input: name });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentgateError);
  return (error as AgentgateError).code;
}

describe('iterate after an agent that armed the repository', () => {
  it('runs none of the programs the agent planted during its turn, and commits exactly the workspace', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const { bin, markers } = armoury();
    const hooks = ['pre-commit', 'post-commit', 'commit-msg', 'reference-transaction', 'post-index-change'];
    for (const h of hooks) {
      writeFileSync(join(bin, 'hooks', h), `#!/bin/sh\ntouch "${markers}/hookspath-${h}"\n`, { mode: 0o755 });
    }
    writeFileSync(join(bin, 'include.cfg'), `[filter "inc"]\n\tclean = ${bin}/mark-cat include-clean\n`);
    writeFileSync(
      join(bin, 'includeif.cfg'),
      `[filter "incif"]\n\tclean = ${bin}/mark-cat includeif-clean\n`,
    );
    const cfg = (key: string, value: string) => `git config --file .git/config '${key}' '${value}'`;
    const script = [
      // Attributes that route every kind of file through a planted driver.
      `printf '*.txt filter=x diff=y\\n*.dat filter=p\\n*.md filter=inc\\n*.js filter=incif\\n' > .gitattributes`,
      cfg('filter.x.clean', `${bin}/mark-cat clean`),
      cfg('filter.x.smudge', `${bin}/mark-cat smudge`),
      cfg('filter.x.required', 'true'),
      cfg('filter.p.process', `${bin}/mark-exit process`),
      cfg('core.fsmonitor', `${bin}/mark-exit fsmonitor`),
      cfg('core.hooksPath', join(bin, 'hooks')),
      cfg('diff.external', `${bin}/mark-exit diff-external`),
      cfg('diff.y.textconv', `${bin}/mark-cat textconv`),
      cfg('include.path', join(bin, 'include.cfg')),
      cfg('includeIf.onbranch:main.path', join(bin, 'includeif.cfg')),
      ...hooks.map(
        (h) =>
          `printf '#!/bin/sh\\ntouch "${markers}/hook-${h}"\\n' > .git/hooks/${h}; chmod +x .git/hooks/${h}`,
      ),
      `printf 'two\\n' > a.txt`,
      `printf 'data\\n' > b.dat`,
      `printf '# doc\\n' > c.md`,
      `printf 'x = 1\\n' > d.js`,
    ].join('\n');
    const snapshotter = newSnapshotter();
    const snapshot = await snapshotter.iterate(ws, {
      runId: 'r1',
      iteration: 1,
      agent: { argv: agent(script) },
    });

    expect(snapshot.agent.exitCode).toBe(0);
    expect(readdirSync(markers), 'planted programs that ran').toEqual([]);
    expect(snapshot.files.map((f) => f.path).sort()).toEqual([
      '.gitattributes',
      'a.txt',
      'b.dat',
      'c.md',
      'd.js',
    ]);
    // The commit holds the files' own bytes, and nothing from outside the workspace.
    expect(git(ws, ['cat-file', 'blob', `${snapshot.afterSha}:a.txt`])).toBe('two');
    expect(git(ws, ['ls-tree', '-r', '--name-only', snapshot.afterSha]).split('\n').sort()).toEqual([
      '.gitattributes',
      'a.txt',
      'b.dat',
      'c.md',
      'd.js',
    ]);
    const patch = await snapshotter.generatePatch(snapshot);
    expect(patch).toContain('+two');
    expect(readdirSync(markers), 'planted programs that ran for patch').toEqual([]);
    expect((await snapshotter.verify({ runId: 'r1' })).ok).toBe(true);
    expect(readdirSync(markers), 'planted programs that ran for verify').toEqual([]);

    // Control: the arming is live for a git that does not neutralise it.
    // (It may fail too: the planted process filter exits 1.)
    try {
      execFileSync('git', ['diff', 'HEAD~1', 'HEAD'], { cwd: ws, env: oracleEnv(), stdio: 'ignore' });
    } catch {
      // the markers tell
    }
    expect(readdirSync(markers)).toContain('diff-external');
  });

  it('fails as after does when the agent points core.worktree outside, and commits nothing from there', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const outside = tempDir('agentgate-outside-');
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    const snapshotter = newSnapshotter();
    const script = `printf 'two\\n' > a.txt\ngit config --file .git/config core.worktree '${outside}'`;
    const code = await codeOf(
      snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: agent(script) } }),
    );

    expect(code).toBe('UNSAFE_WORKSPACE');
    // The same code as a separate after on the same repository: the same code path.
    expect(await codeOf(snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 1 }))).toBe(code);
    expect(allObjects(ws)).not.toContain(SECRET);
    // What is recorded: the before state, unused; no snapshot, no iteration ref, no patch artifact.
    const run = await snapshotter.store.loadRun('r1');
    expect(run?.before).not.toBeNull();
    expect(run?.beforeUsedBy ?? null).toBeNull();
    expect(run?.snapshotIds).toEqual([]);
    expect(git(ws, ['for-each-ref', 'refs/agentgate/'])).toBe('');
    expect(existsSync(join(snapshotter.options.artifactsDir, 'r1'))).toBe(false);

    // Once the setting is gone, "after" records the iteration from the recorded before state.
    git(ws, ['config', '--file', '.git/config', '--unset', 'core.worktree']);
    const after = await snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 1 });
    expect(after.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(allObjects(ws)).not.toContain(SECRET);
  });

  it.each([
    [
      'a .git file pointing into its .git',
      (other: string) => `mv .git ../moved-git\nprintf 'gitdir: %s\\n' '${other}/.git' > .git`,
    ],
    [
      'a commondir file naming its .git',
      (other: string) => `printf '%s\\n' '${other}/.git' > .git/commondir`,
    ],
    [
      'a .git symbolic link to its .git',
      (other: string) => `mv .git ../moved-git\nln -s '${other}/.git' .git`,
    ],
  ])(
    'fails as after does when the agent plants %s: the other checkout takes nothing',
    async (_what, plant) => {
      const ws = join(tempDir('agentgate-ws-'), 'ws');
      mkdirSync(ws);
      git(ws, ['init', '-q', '-b', 'main']);
      writeFileSync(join(ws, 'a.txt'), 'one\n');
      git(ws, ['add', '-A']);
      git(ws, ['commit', '-q', '-m', 'initial']);
      const other = repoWithCommit({ 'secret.txt': `${SECRET}\n` });
      const otherRefs = git(other, ['for-each-ref']);
      const otherObjects = allObjects(other);
      const snapshotter = newSnapshotter();
      const script = `printf 'two\\n' > a.txt\n${plant(other)}`;
      const code = await codeOf(
        snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: agent(script) } }),
      );
      expect(code).toBe('UNSAFE_WORKSPACE');
      expect(await codeOf(snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 1 }))).toBe(code);
      expect(git(other, ['for-each-ref'])).toBe(otherRefs);
      expect(allObjects(other)).toBe(otherObjects);
      expect((await snapshotter.store.loadRun('r1'))?.snapshotIds).toEqual([]);
    },
  );

  it('names the files whose change the agent hid behind assume-unchanged or skip-worktree, and leaves the marks', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n', 'b.txt': 'bee\n', 'c.txt': 'sea\n', 'same.txt': 'same\n' });
    const snapshotter = newSnapshotter();
    const script = [
      `printf 'hidden\\n' >> a.txt`,
      'git update-index --assume-unchanged a.txt same.txt',
      `printf 'hidden too\\n' >> b.txt`,
      'git update-index --skip-worktree b.txt',
      `printf 'seen\\n' >> c.txt`,
    ].join('\n');
    const snap = await snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: agent(script) } });
    expect(snap.files.map((f) => f.path)).toEqual(['c.txt']);
    expect(snap.skipped).toEqual([
      { path: 'a.txt', reason: 'not-compared' },
      { path: 'b.txt', reason: 'not-compared' },
    ]);
    expect(git(ws, ['ls-files', '-v', 'a.txt', 'b.txt'])).toBe('h a.txt\nS b.txt');
  });

  it("names a hidden link pointing elsewhere and an emptied directory in a file's place; a directory add takes is committed", async () => {
    const ws = repoWithCommit({
      'good.conf': 'good\n',
      'bad.conf': 'bad\n',
      'f.txt': 'f\n',
      'g.txt': 'g\n',
      'h.txt': 'h',
    });
    git(ws, ['update-index', '--add', '--cacheinfo', `120000,${blobOf(ws, 'good.conf')},app.conf`]);
    git(ws, ['update-index', '--add', '--cacheinfo', `120000,${blobOf(ws, 'good.conf')},same.conf`]);
    git(ws, ['commit', '-q', '-m', 'links']);
    git(ws, ['checkout', '--', 'app.conf', 'same.conf']);
    const snapshotter = newSnapshotter();
    const script = [
      'git update-index --assume-unchanged app.conf same.conf f.txt g.txt h.txt',
      'ln -sfn bad.conf app.conf',
      // The link's blob is the file's ("h"): only the mode tells them apart.
      'rm h.txt && ln -s h h.txt',
      'rm f.txt g.txt && mkdir f.txt g.txt && echo y > g.txt/y',
    ].join('\n');
    const snap = await snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: agent(script) } });
    expect(snap.files.map((f) => f.path).sort()).toEqual(['g.txt', 'g.txt/y']);
    expect(snap.skipped).toEqual([
      { path: 'app.conf', reason: 'not-compared' },
      { path: 'f.txt', reason: 'not-compared' },
      { path: 'h.txt', reason: 'not-compared' },
    ]);
  });

  it('names a marked file the agent deleted, which add does not stage; a sparse checkout leaving files out is no deletion', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c/x.txt': 'x\n', 'd/y.txt': 'y\n' });
    const snapshotter = newSnapshotter();
    const script = [
      'git update-index --assume-unchanged a.txt',
      'git update-index --skip-worktree b.txt',
      'rm a.txt b.txt',
      'echo x > x',
    ].join('\n');
    const snap = await snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: agent(script) } });
    expect(snap.files.map((f) => f.path)).toEqual(['x']);
    expect(snap.skipped).toEqual([
      { path: 'a.txt', reason: 'not-compared' },
      { path: 'b.txt', reason: 'not-compared' },
    ]);
    const sparse =
      'git update-index --no-skip-worktree b.txt && git checkout -- b.txt && git sparse-checkout set c';
    const next = await snapshotter.iterate(ws, { runId: 'r1', iteration: 2, agent: { argv: agent(sparse) } });
    expect(next.skipped).toEqual([{ path: 'a.txt', reason: 'not-compared' }]);
  });

  it('names a submodule not checked out in which the agent wrote a file that add passes over', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const source = repoWithCommit({ 's.txt': 's\n' });
    git(ws, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', source, 'lib']);
    git(ws, ['commit', '-q', '-m', 'lib']);
    git(ws, ['submodule', '--quiet', 'deinit', '-f', 'lib']);
    const snapshotter = newSnapshotter();
    const agentWrites = agent('echo x > lib/agent.txt && echo y > y.txt');
    const snap = await snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: agentWrites } });
    expect(snap.files.map((f) => f.path)).toEqual(['y.txt']);
    expect(snap.skipped).toEqual([{ path: 'lib', reason: 'submodule-not-checked-out' }]);
  });

  it('names a checked-out submodule whose work the agent left uncommitted inside it; its commit is recorded', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const source = repoWithCommit({ 's.txt': 's\n' });
    git(ws, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', source, 'lib']);
    git(ws, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', source, 'clean']);
    git(ws, ['commit', '-q', '-m', 'lib']);
    const snapshotter = newSnapshotter();
    const edits = agent('echo changed > lib/s.txt && echo new > lib/new.txt && echo y > y.txt');
    const snap = await snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: edits } });
    expect(snap.files.map((f) => f.path)).toEqual(['y.txt']);
    expect(snap.skipped).toEqual([{ path: 'lib', reason: 'submodule-modified' }]);
    // Committed inside the submodule, the work is its new commit: recorded, nothing skipped.
    const commits = agent(
      'git -C lib add -A && git -C lib -c user.name=a -c user.email=a@b commit -q -m work',
    );
    const next = await snapshotter.iterate(ws, { runId: 'r1', iteration: 2, agent: { argv: commits } });
    expect(next.agent).toMatchObject({ exitCode: 0 });
    expect(next.files.map((f) => f.path)).toEqual(['lib']);
    expect(next.skipped).toBeUndefined();
  });

  it('names a submodule whose commit the agent moved, deleted or replaced behind assume-unchanged or skip-worktree', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const source = repoWithCommit({ 's.txt': 's\n' });
    for (const name of ['moved', 'gone', 'file', 'same'])
      git(ws, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', source, name]);
    git(ws, ['commit', '-q', '-m', 'subs']);
    const snapshotter = newSnapshotter();
    const script = [
      'git update-index --assume-unchanged moved gone same',
      'git update-index --skip-worktree file',
      'git -C moved -c user.name=a -c user.email=a@b commit -q --allow-empty -m moved',
      'rm -rf gone file && echo f > file',
      'echo y > y.txt',
    ].join('\n');
    const snap = await snapshotter.iterate(ws, { runId: 'r1', iteration: 1, agent: { argv: agent(script) } });
    expect(snap.files.map((f) => f.path)).toEqual(['y.txt']);
    expect(snap.skipped).toEqual([
      { path: 'file', reason: 'not-compared' },
      { path: 'gone', reason: 'not-compared' },
      { path: 'moved', reason: 'not-compared' },
    ]);
    expect(git(ws, ['ls-files', '-v', 'moved', 'file'])).toBe('S file\nh moved');
  });
});
