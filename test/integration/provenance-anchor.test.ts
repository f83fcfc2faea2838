import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../src/fs/path-bytes.js';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { gitCallCount } from '../../src/git/runner.js';
import { commitAll, git, lines, recordRunsCleanedUp, squash, writeFiles } from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

describe('anchor', () => {
  it('a squash onto an unchanged main: tree, every line from the run, per iteration', async () => {
    const s = await run([{ 'a.txt': lines('a', 3) }, { 'a.txt': lines('a', 5), 'b.txt': lines('b', 2) }]);
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.treeMatch).toMatchObject({ runId: 'run-a', iteration: 2 });
    expect(anchor.coverage).toEqual({ files: 2, filesFromRuns: 2, linesAdded: 7, linesFromRuns: 7 });
    const a = anchor.files.find((f) => f.path === 'a.txt');
    expect(a).toMatchObject({ method: 'tree', linesAdded: 5, linesFromRuns: 5 });
    expect(a?.origins).toEqual([
      { runId: 'run-a', iteration: 1, lines: 3 },
      { runId: 'run-a', iteration: 2, lines: 2 },
    ]);
    expect(anchor.runs).toEqual([{ runId: 'run-a', iterations: [1, 2] }]);
  });

  it("a run's own after commit: its tree match is that run, though another run recorded the same tree later", async () => {
    const s = await run([{ 'a.txt': lines('a', 3) }]);
    const own = s.snapshots[0]?.afterSha as string;
    await run([{ 'a.txt': lines('a', 3) }], { setup: s, runId: 'run-b' });
    expect(s.snapshots[1]?.afterSha).not.toBe(own);
    expect((await computeAnchor(s.src, s.repo, own)).treeMatch).toEqual({
      runId: 'run-a',
      iteration: 1,
      afterSha: own,
    });
    // A squash of it is neither run's commit, nor has either in its history: the one recorded last.
    git(s.dir, ['merge', '--squash', '-q', 'agent-run-a']);
    const c = commitAll(s.dir, 'squash');
    expect((await computeAnchor(s.src, s.repo, c)).treeMatch).toMatchObject({ runId: 'run-b' });
    // A merge commit of run-a's branch has run-a's after commit in its history: run-a, as attest --commit says.
    git(s.dir, ['reset', '-q', '--hard', 'HEAD~1']);
    git(s.dir, ['merge', '--no-ff', '-q', '-m', 'merge', 'agent-run-a']);
    const m = git(s.dir, ['rev-parse', 'HEAD']);
    expect((await computeAnchor(s.src, s.repo, m)).treeMatch).toMatchObject({ runId: 'run-a' });
  });

  it('a squash after main moved: blob for files main did not touch, patch-id for one it did', async () => {
    const s = await run([{ 'a.txt': lines('a', 10).replace('a 5\n', 'five\n'), 'n.txt': 'new\n' }], {
      base: { 'a.txt': lines('a', 10) },
    });
    writeFiles(s.dir, { 'a.txt': `top\n${lines('a', 10)}` });
    commitAll(s.dir, 'main moved');
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.treeMatch).toBeNull();
    expect(anchor.files.find((f) => f.path === 'a.txt')).toMatchObject({
      method: 'patch-id',
      linesFromRuns: 1,
    });
    expect(anchor.files.find((f) => f.path === 'n.txt')).toMatchObject({ method: 'blob', linesFromRuns: 1 });
  });

  it("a person's whitespace edit of the run's lines is the person's: no patch-id, no credit", async () => {
    const s = await run([{ 'clean.sh': '#!/bin/sh\nrm -rf ./build\n', 'x.py': 'a = 1\nrun()\n' }], {
      base: { 'clean.sh': '#!/bin/sh\n', 'x.py': 'a = 1\n' },
    });
    writeFiles(s.dir, { 'top.txt': 'main moved\n' });
    commitAll(s.dir, 'main moved');
    git(s.dir, ['merge', '--squash', '-q', 'agent-run-a']);
    // One space that deletes the whole tree, one indent that changes what runs: not the agent's lines.
    writeFiles(s.dir, { 'clean.sh': '#!/bin/sh\nrm -rf . /build\n', 'x.py': 'a = 1\n    run()\n' });
    const anchor = await computeAnchor(s.src, s.repo, commitAll(s.dir, 'squash, edited'));
    for (const path of ['clean.sh', 'x.py'])
      expect(
        anchor.files.find((f) => f.path === path),
        path,
      ).toMatchObject({
        linesAdded: 1,
        linesFromRuns: 0,
        method: 'none',
      });
  });

  it('a file with no line of the change (deleted, binary, empty) names the iteration that left it so', async () => {
    const s = await run(
      [{ 'gone.txt': null, 'b.dat': '\0bin', 'empty.txt': '' }, { 'keep.txt': 'k\nit2\n' }],
      {
        base: { 'gone.txt': 'g\n', 'keep.txt': 'k\n' },
      },
    );
    const onlyFirst = (a: Awaited<ReturnType<typeof computeAnchor>>) => {
      for (const path of ['gone.txt', 'b.dat', 'empty.txt'])
        expect(a.files.find((f) => f.path === path)?.origins).toEqual([
          { runId: 'run-a', iteration: 1, lines: 0 },
        ]);
    };
    // Squashed onto an unchanged main: iteration 2's tree, but iteration 1 made these files so.
    const squashed = await computeAnchor(s.src, s.repo, squash(s.dir, 'agent-run-a'));
    expect(squashed.files.find((f) => f.path === 'gone.txt')?.method).toBe('tree');
    onlyFirst(squashed);
    expect(squashed.files.find((f) => f.path === 'keep.txt')?.origins).toEqual([
      { runId: 'run-a', iteration: 2, lines: 1 },
    ]);
    // Iteration 1's commit rebased onto a main that moved: blob, still iteration 1 and only it.
    git(s.dir, ['reset', '-q', '--hard', 'HEAD~1']);
    writeFiles(s.dir, { 'm.txt': 'main\n' });
    commitAll(s.dir, 'main moved');
    git(s.dir, ['cherry-pick', '--allow-empty', s.snapshots[0]?.afterSha as string]);
    const rebased = await computeAnchor(s.src, s.repo, git(s.dir, ['rev-parse', 'HEAD']));
    expect(rebased.files.find((f) => f.path === 'gone.txt')?.method).toBe('blob');
    onlyFirst(rebased);
    expect(rebased.runs).toEqual([{ runId: 'run-a', iterations: [1] }]);
  });

  it("a commit that lands the run's change and renames the file falls back to lines under the new name", async () => {
    // A line long enough to say where it came from (a block of 20 letters and digits, as git blame asks).
    const s = await run([{ 'g.txt': lines('g', 10).replace('g 3\n', 'g 3 written by the agent run\n') }], {
      base: { 'g.txt': lines('g', 10) },
    });
    git(s.dir, ['checkout', 'agent-run-a', '--', 'g.txt']);
    git(s.dir, ['mv', 'g.txt', 'h.txt']);
    const c = commitAll(s.dir, 'land the change, renamed');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files).toEqual([
      expect.objectContaining({
        path: 'h.txt',
        oldPath: 'g.txt',
        method: 'lines',
        linesFromRuns: 1,
        origins: [{ runId: 'run-a', iteration: 1, lines: 1 }],
      }),
    ]);
    // trace follows blame's rename: the line is the run's, the others are from before it.
    const trace = await computeTrace(s.src, s.repo, 'h.txt', { rev: c });
    expect(trace.ranges.map((r) => [r.start, r.end, r.origin?.iteration ?? null])).toEqual([
      [1, 2, null],
      [3, 3, 1],
      [4, 10, null],
    ]);
  });

  it('a merge commit and a fast-forward: ancestry', async () => {
    const s = await run([{ 'a.txt': lines('a', 2) }, { 'a.txt': lines('a', 4) }]);
    writeFiles(s.dir, { 'm.txt': 'main\n' });
    commitAll(s.dir, 'main moved');
    git(s.dir, ['merge', '-q', '--no-ff', '--no-edit', 'agent-run-a']);
    const merge = git(s.dir, ['rev-parse', 'HEAD']);
    const anchor = await computeAnchor(s.src, s.repo, merge);
    expect(anchor.files).toEqual([
      expect.objectContaining({ path: 'a.txt', method: 'ancestry', linesAdded: 4, linesFromRuns: 4 }),
    ]);
    const ff = await computeAnchor(s.src, s.repo, s.snapshots[1]?.afterSha as string);
    expect(ff.files[0]).toMatchObject({
      method: 'ancestry',
      linesAdded: 2,
      origins: [{ iteration: 2, lines: 2 }],
    });
  });

  it("a person's edits and a new file after the run: lines, and none", async () => {
    // Lines that carry enough to say where they came from (20 letters and digits a block, as git blame asks).
    const agent = lines('the agent wrote line', 6);
    const s = await run([{ 'a.txt': agent }]);
    git(s.dir, ['checkout', '-q', 'agent-run-a']);
    writeFiles(s.dir, { 'a.txt': agent.replace('the agent wrote line 3\n', 'person\n'), 'p.txt': 'mine\n' });
    commitAll(s.dir, 'person');
    git(s.dir, ['checkout', '-q', 'main']);
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files.find((f) => f.path === 'a.txt')).toMatchObject({
      method: 'lines',
      linesAdded: 6,
      linesFromRuns: 5,
    });
    expect(anchor.files.find((f) => f.path === 'p.txt')).toMatchObject({
      method: 'none',
      linesFromRuns: 0,
      origins: [],
    });
    expect(anchor.coverage).toEqual({ files: 2, filesFromRuns: 1, linesAdded: 7, linesFromRuns: 5 });
  });

  it('a WIP before commit: its lines are iteration 0 and not counted', async () => {
    const s = await run([{ 'a.txt': `${lines('w', 2)}${lines('a', 1)}` }], {
      dirty: { 'a.txt': lines('w', 2) },
    });
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files[0]).toMatchObject({ linesAdded: 3, linesFromRuns: 1 });
    expect(anchor.files[0]?.origins).toEqual([
      { runId: 'run-a', iteration: 0, lines: 2 },
      { runId: 'run-a', iteration: 1, lines: 1 },
    ]);
  });

  it("a WIP before commit landed by fast-forward: each file is the WIP's own content (ancestry), not lines", async () => {
    const s = await run([{ 'a.txt': `${lines('w', 2)}${lines('a', 1)}`, 'b.txt': lines('b', 1) }], {
      base: { 'a.txt': 'base\n', 'c.txt': 'c\n' },
      dirty: { 'a.txt': lines('w', 2), 'c.txt': 'c\nmore\n' },
    });
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    const wip = s.snapshots[0]?.beforeSha as string;
    const anchor = await computeAnchor(s.src, s.repo, wip);
    expect(anchor.files.map((f) => [f.path, f.method, f.linesAdded, f.linesFromRuns, f.origins])).toEqual([
      ['a.txt', 'ancestry', 2, 0, [{ runId: 'run-a', iteration: 0, lines: 2 }]],
      ['c.txt', 'ancestry', 1, 0, [{ runId: 'run-a', iteration: 0, lines: 1 }]],
    ]);
    // The iteration's own commit is unchanged: ancestry, its line iteration 1's.
    const after = await computeAnchor(s.src, s.repo, s.snapshots[0]?.afterSha as string);
    expect(after.files.map((f) => [f.path, f.method, f.linesFromRuns])).toEqual([
      ['a.txt', 'ancestry', 1],
      ['b.txt', 'ancestry', 1],
    ]);
  });

  it('two runs that can explain one file are both named', async () => {
    const s = await run([{ 'a.txt': lines('a', 3) }]);
    await run([{ 'a.txt': lines('a', 3) }], { setup: s, runId: 'run-b' });
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files[0]?.origins.map((o) => o.runId)).toEqual(['run-a', 'run-b']);
    expect(anchor.files[0]?.linesFromRuns).toBe(3);
  });

  it('cherry-pick onto another branch and a rebase merge', async () => {
    const s = await run([{ 'a.txt': lines('a', 2) }, { 'b.txt': lines('b', 2) }], {
      base: { 'a.txt': 'x\n', 'b.txt': 'y\n' },
    });
    writeFiles(s.dir, { 'c.txt': 'main\n' });
    commitAll(s.dir, 'main moved');
    git(s.dir, ['cherry-pick', s.snapshots[1]?.afterSha as string]);
    const picked = await computeAnchor(s.src, s.repo, 'HEAD');
    expect(picked.files[0]).toMatchObject({
      path: 'b.txt',
      method: 'blob',
      origins: [{ iteration: 2, lines: 2 }],
    });
    git(s.dir, ['reset', '-q', '--hard', 'HEAD~1']);
    git(s.dir, ['rebase', '-q', 'main', 'agent-run-a']);
    const first = await computeAnchor(s.src, s.repo, 'HEAD~1');
    expect(first.files[0]).toMatchObject({ path: 'a.txt', method: 'blob', linesFromRuns: 2 });
    expect(first.files[0]?.origins).toEqual([{ runId: 'run-a', iteration: 1, lines: 2 }]);
  });

  it('file names git could read as globs or magic pathspecs, and names with spaces and newlines', async () => {
    const odd = {
      '[x]*.txt': lines('g', 2),
      ':(top)y.txt': lines('m', 2),
      'sp ace\nnl.txt': lines('s', 2),
      'plain.txt': 'p\n',
    };
    const s = await run([odd]);
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files.map((f) => [f.path, f.method, f.linesFromRuns]).sort()).toEqual(
      [
        ['[x]*.txt', 'tree', 2],
        [':(top)y.txt', 'tree', 2],
        ['sp ace\nnl.txt', 'tree', 2],
        ['plain.txt', 'tree', 1],
      ].sort(),
    );
    for (const path of ['[x]*.txt', ':(top)y.txt', 'sp ace\nnl.txt']) {
      const t = await computeTrace(s.src, s.repo, path);
      expect(t.ranges.map((r) => [r.start, r.end, r.origin?.iteration])).toEqual([[1, 2, 1]]);
    }
  });

  it('names that are not UTF-8, with quotes, backslashes, tabs and line breaks: anchored and traced by their bytes', async () => {
    const s = await run([]);
    git(s.dir, ['checkout', '-q', 'agent-run-a']);
    await s.snap.captureBeforeState(s.dir, { runId: 'run-a' });
    const names = ['caf\xe9 "q\\".txt', 'tab\tnl\n\xff.txt', "it's \xfe\r.txt"];
    for (const n of names) writeFileSync(Buffer.from(join(s.dir, n), 'latin1'), lines('x', 2));
    await s.snap.captureAfterState(s.dir, null, { runId: 'run-a', iteration: 1 });
    git(s.dir, ['checkout', '-q', 'main']);
    const c = squash(s.dir, 'agent-run-a');
    const paths = names.map((n) => decodeBytes(Buffer.from(n, 'latin1')));
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files.map((f) => [f.path, f.method]).sort()).toEqual(paths.map((p) => [p, 'tree']).sort());
    // The squash through the engine; the run's own commit through the shortcut (its diff attribute read).
    for (const rev of [c, git(s.dir, ['rev-parse', 'agent-run-a'])])
      for (const path of paths) {
        const t = await computeTrace(s.src, s.repo, path, { rev });
        expect([t.path, t.ranges.map((r) => [r.start, r.end, r.origin?.iteration])]).toEqual([
          path,
          [[1, 2, 1]],
        ]);
      }
  });

  it('a fixed number of git processes, whatever the files changed and the runs', async () => {
    const count = async (files: number, runs: number): Promise<number> => {
      const many = (tag: string) =>
        Object.fromEntries(Array.from({ length: files }, (_, i) => [`${tag}/f${i}.txt`, lines(tag, 3)]));
      const s = await run([many('a'), { ...many('a'), ...many('b') }]);
      for (let r = 1; r < runs; r++) {
        await run([{ [`other${r}.txt`]: 'x\n', 'a/f0.txt': lines('r', r) }], { setup: s, runId: `run-${r}` });
      }
      const c = squash(s.dir, 'agent-run-a');
      const before = gitCallCount();
      const anchor = await computeAnchor(s.src, s.repo, c);
      expect(anchor.coverage.files).toBe(2 * files);
      return gitCallCount() - before;
    };
    const small = await count(1, 2);
    expect(await count(40, 6)).toBe(small);
  });
});

describe('provenance through the package entry point', () => {
  it('openRepo is exported, so computeAnchor and computeTrace can be called with what the package gives', async () => {
    const lib = await import('../../src/index.js');
    const s = await run([{ 'a.txt': lines('a', 3) }]);
    const c = squash(s.dir, 'agent-run-a');
    const repo = await lib.openRepo(s.dir);
    const anchor = await lib.computeAnchor(lib.provenanceSources(s.snap), repo, c);
    expect(anchor.files[0]).toMatchObject({ path: 'a.txt', method: 'tree' });
    const trace = await lib.computeTrace(lib.provenanceSources(s.snap), repo, 'a.txt');
    expect(trace.ranges[0]?.origin?.iteration).toBe(1);
  });
});
