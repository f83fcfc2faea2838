/**
 * Gates in the workspace one after another (docs/gates.md's example): the JUnit report an earlier
 * gate of the iteration left untracked does not make the next gate's workspace dirty, anything
 * else still does, and GATE_TREE_MISMATCH names the paths.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GateTreeMismatchError } from '../../src/errors.js';
import { Gates } from '../../src/gates/gates.js';
import { quiet } from '../helpers/gates.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

/** A check that writes a one-test JUnit report at `path` (its directory made as needed). */
function writesReport(path: string): string[] {
  const xml = '<testsuite name="s"><testcase name="t"/></testsuite>';
  return ['sh', '-c', `mkdir -p "$(dirname "$1")" && printf '%s' '${xml}' > "$1"`, 'sh', path];
}

/** Run r1 with one iteration; nothing in .gitignore names the reports. */
async function oneIteration(): Promise<{ dir: string; gates: Gates }> {
  const dir = repoWithCommit({ 'README.md': 'hello\n' });
  const snapshotter = newSnapshotter();
  await snapshotter.captureBeforeState(dir, { runId: 'r1' });
  writeFiles(dir, { 'a.txt': 'a\n' });
  await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
  return { dir, gates: new Gates(snapshotter) };
}

async function mismatch(promise: Promise<unknown>): Promise<GateTreeMismatchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GateTreeMismatchError);
  return error as GateTreeMismatchError;
}

describe('gates of one iteration in the workspace, one after another', () => {
  it("a later gate runs beside the earlier gates' untracked reports (at the top level and in a new directory)", async () => {
    const { dir, gates } = await oneIteration();
    const run = (name: string, command: string[], junit: string[] = []) =>
      gates.run(dir, { runId: 'r1', name, command, junit, echo: quiet() });
    expect((await run('test', writesReport('junit.xml'), ['junit.xml'])).verdict).toBe('pass');
    expect((await run('e2e', writesReport('reports/e2e.xml'), ['reports/e2e.xml'])).verdict).toBe('pass');
    expect((await run('lint', ['true'])).verdict).toBe('pass');
    expect((await run('test', writesReport('junit.xml'), ['junit.xml'])).attempt).toBe(2);
  });

  // macOS's /tmp is /private/tmp: "$PWD/junit.xml" names the workspace through a link. The report
  // is the same file, its own and an earlier gate's alike; so is one named through a link inside.
  it('a report named through a symbolic link (an absolute path by a linked workspace, a linked directory) is its own', async () => {
    const { dir, gates } = await oneIteration();
    const link = join(tempDir('agentgate-gate-link-'), 'ws');
    symlinkSync(dir, link);
    symlinkSync('build', join(dir, 'out'));
    mkdirSync(join(dir, 'build')); // empty: nothing git sees
    git(dir, ['add', 'out']);
    git(dir, ['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-qm', 'out is build']);
    const snapshotter = gates.snapshotter;
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    writeFiles(dir, { 'b.txt': 'b\n' });
    await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 2 });
    const run = (name: string, command: string[], junit: string[] = []) =>
      gates.run(link, { runId: 'r1', name, command, junit, echo: quiet() });
    const absolute = join(link, 'junit.xml');
    expect((await run('test', writesReport(absolute), [absolute])).verdict).toBe('pass');
    expect((await run('e2e', writesReport('out/e2e.xml'), ['out/e2e.xml'])).verdict).toBe('pass');
    expect((await run('lint', ['true'])).verdict).toBe('pass');
  });

  it('anything else untracked, or a report path changed while tracked, is GATE_TREE_MISMATCH naming the paths', async () => {
    const { dir, gates } = await oneIteration();
    const run = (name: string, command: string[], junit: string[] = []) =>
      gates.run(dir, { runId: 'r1', name, command, junit, echo: quiet() });
    await run('test', writesReport('junit.xml'), ['junit.xml']);
    writeFileSync(join(dir, 'stray.txt'), 'x\n');
    expect((await mismatch(run('lint', ['true']))).details.paths).toEqual(['stray.txt']);
    rmSync(join(dir, 'stray.txt'));
    // A tracked file is part of the tree: an earlier gate that named it as its report excuses nothing.
    expect(await run('readme', writesReport('README.md'), ['README.md'])).toMatchObject({
      verdict: 'error',
      workspaceChanged: true,
    });
    expect((await mismatch(run('lint', ['true']))).details.paths).toEqual(['README.md']);
    // Nor does naming it with --junit again: the gate does not run on a changed tracked file.
    expect((await mismatch(run('readme', writesReport('README.md'), ['README.md']))).details.paths).toEqual([
      'README.md',
    ]);
  });

  it('a tracked file changed before the gate is GATE_TREE_MISMATCH even when the gate names it with --junit', async () => {
    const { dir, gates } = await oneIteration();
    writeFileSync(join(dir, 'README.md'), 'edited after the iteration\n');
    const refused = await mismatch(
      gates.run(dir, {
        runId: 'r1',
        name: 'test',
        command: writesReport('README.md'),
        junit: ['README.md'],
        echo: quiet(),
      }),
    );
    expect(refused.details.paths).toEqual(['README.md']);
    expect((await gates.list({ runId: 'r1' })).results).toEqual([]);
  });

  it("earlier gates' reports are excused only in the run's own workspace (by real path), not in a clone", async () => {
    const { dir, gates } = await oneIteration();
    const run = (where: string, name: string, command: string[], junit: string[] = []) =>
      gates.run(where, { runId: 'r1', name, command, junit, echo: quiet() });
    await run(dir, 'test', writesReport('junit.xml'), ['junit.xml']);
    const link = join(tempDir('agentgate-gate-link-'), 'ws');
    symlinkSync(dir, link);
    expect((await run(link, 'lint', ['true'])).verdict).toBe('pass');
    const clone = join(tempDir('agentgate-gate-clone-'), 'other');
    git(dir, ['clone', '-q', dir, clone]);
    writeFileSync(join(clone, 'junit.xml'), 'planted\n');
    expect((await mismatch(run(clone, 'lint', ['true']))).details.paths).toEqual(['junit.xml']);
  });

  it("an isolated gate's reports never reach the workspace: they excuse nothing there", async () => {
    const { dir, gates } = await oneIteration();
    await gates.run(dir, {
      runId: 'r1',
      name: 'test',
      command: writesReport('junit.xml'),
      junit: ['junit.xml'],
      isolated: true,
      echo: quiet(),
    });
    writeFileSync(join(dir, 'junit.xml'), '<testsuite/>');
    const refused = await mismatch(
      gates.run(dir, { runId: 'r1', name: 'lint', command: ['true'], echo: quiet() }),
    );
    expect(refused.details.paths).toEqual(['junit.xml']);
  });
});

describe('a check that changes the workspace it judges', () => {
  const edits: Array<[string, (dir: string) => string[], string[]]> = [
    ['writes a tracked file', () => ['sh', '-c', 'printf "good\\n" > README.md'], ['README.md']],
    ['leaves an untracked file', () => ['sh', '-c', 'echo x > stray.txt'], ['stray.txt']],
    ['deletes a tracked file', () => ['rm', 'a.txt'], ['a.txt']],
    [
      'commits (HEAD moves)',
      () => ['sh', '-c', 'echo y > a.txt && git -c user.name=t -c user.email=t@t commit -qam moved'],
      [],
    ],
  ];
  it.each(edits)(
    '%s: an error naming what changed, never a pass; verify keeps it',
    async (_l, command, paths) => {
      const { dir, gates } = await oneIteration();
      const result = await gates.run(dir, {
        runId: 'r1',
        name: 'lint',
        command: command(dir),
        echo: quiet(),
      });
      expect(result).toMatchObject({ verdict: 'error', exitCode: 0, workspaceChanged: true });
      expect(result.reason).toMatch(/^GATE_TREE_MISMATCH: after the check /);
      for (const p of paths) expect(result.reason).toContain(p);
      const verified = await gates.verify({ runId: 'r1' }, { requireGates: ['lint'] });
      expect(verified.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['require-gate']);
    },
  );

  it('its own report and files git ignores are no change; --isolated is not compared with the workspace', async () => {
    const { dir, gates } = await oneIteration();
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'build/\n');
    const run = (command: string[], more = {}) =>
      gates.run(dir, { runId: 'r1', name: 'test', command, junit: ['junit.xml'], echo: quiet(), ...more });
    const writes = [
      'sh',
      '-c',
      `mkdir -p build && echo o > build/out && ${writesReport('junit.xml')[2]}`,
      'sh',
    ];
    const passed = await run([...writes, 'junit.xml']);
    expect(passed.verdict).toBe('pass');
    expect(passed).not.toHaveProperty('workspaceChanged');
    rmSync(join(dir, 'junit.xml'));
    const isolated = await run(
      ['sh', '-c', `echo x > stray.txt && ${writesReport('junit.xml')[2]}`, 'sh', 'junit.xml'],
      {
        isolated: true,
      },
    );
    expect(isolated.verdict).toBe('pass');
  });
});

describe('a workspace gate in a sparse checkout', () => {
  it('runs: the files the cone leaves out are marked skip-worktree but absent, so nothing hides there', async () => {
    const dir = repoWithCommit({ 'a/x.txt': 'x\n', 'b/y.txt': 'y\n' });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    writeFiles(dir, { 'a/z.txt': 'z\n' });
    await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    git(dir, ['sparse-checkout', 'set', 'a']);
    const gates = new Gates(snapshotter);
    const result = await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    expect(result.verdict).toBe('pass');
  });
});
