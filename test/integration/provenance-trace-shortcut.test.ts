/**
 * The ancestry shortcut of `trace` (src/provenance/trace-ancestry.ts) gives the very trace the
 * link engine gives: every shape the other provenance tests build, and real history
 * (fixtures/real-history, vercel/ms replayed as one run and fast-forwarded), traced both ways.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo.js';
import { gitCallCount } from '../../src/git/runner.js';
import { provenanceSources } from '../../src/provenance/sources.js';
import { computeTrace } from '../../src/provenance/trace.js';
import {
  commitAll,
  git,
  lines,
  recordRunsCleanedUp,
  squash,
  writeFiles,
  type RunSetup,
} from '../helpers/provenance.js';
import { codeOf } from '../helpers/codes.js';
import { remove, tempDir } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

const run = recordRunsCleanedUp();

/** Traces PATH at REV with the shortcut and without it; both must be equal. Returns the trace. */
async function bothWays(s: Pick<RunSetup, 'src' | 'repo'>, path: string, rev = 'HEAD') {
  const fast = await computeTrace(s.src, s.repo, path, { rev });
  const full = await computeTrace(s.src, s.repo, path, { rev, shortcut: false });
  expect(fast).toEqual(full);
  return fast;
}

const iterationsOf = (t: Awaited<ReturnType<typeof computeTrace>>) =>
  t.ranges.map((r) => [r.start, r.end, r.origin?.iteration ?? null]);

describe('trace: the ancestry shortcut and the engine agree', () => {
  it('a fast-forward with a person on top: the shortcut takes the run’s own commits, with no diff', async () => {
    const s = await run(
      [
        { 'a.txt': `${lines('a', 2)}${lines('i1', 2)}` },
        { 'a.txt': `${lines('a', 2)}${lines('i1', 2)}${lines('i2', 2)}`, 'b.txt': 'b\n' },
        { 'b.txt': 'b2\n' },
        { 'a.txt': `${lines('i3', 1)}${lines('a', 2)}${lines('i1', 2)}${lines('i2', 2)}` },
      ],
      { base: { 'a.txt': lines('a', 2) } },
    );
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    const t = await bothWays(s, 'a.txt');
    expect(iterationsOf(t)).toEqual([
      [1, 1, 4],
      [2, 3, null],
      [4, 5, 1],
      [6, 7, 2],
    ]);
    expect(t.ranges[0]?.origin?.afterSha).toBe(s.snapshots[3]?.afterSha);
    // REV and PATH, blame, the commits, the iteration's blobs of b.txt (binary?): no diff for the runs' own commits.
    const before = gitCallCount();
    await computeTrace(s.src, s.repo, 'b.txt');
    expect(gitCallCount() - before).toBe(4);
    // Attributes of this clone make no file binary, nor text: content alone decides, both ways.
    for (const attributes of ['b.txt -diff\n', 'b.txt diff\n']) {
      writeFiles(s.dir, { '.gitattributes': attributes });
      expect((await bothWays(s, 'b.txt')).ranges.map((r) => r.origin?.iteration)).toEqual([3]);
    }
    remove(join(s.dir, '.gitattributes'));
    writeFiles(s.dir, { 'a.txt': `person\n${lines('a', 2)}${lines('i1', 2)}${lines('i2', 2)}` });
    commitAll(s.dir, 'person');
    expect(iterationsOf(await bothWays(s, 'a.txt'))).toEqual([
      [1, 1, null],
      [2, 3, null],
      [4, 5, 1],
      [6, 7, 2],
    ]);
    expect(await bothWays(s, 'a.txt', 'HEAD~1')).toEqual(t);
  });

  it('merge commit, squash, cherry-pick and -L: the same trace both ways', async () => {
    const s = await run(
      [
        { 'a.txt': `${lines('a', 3)}${lines('i1', 2)}` },
        { 'a.txt': `${lines('i2', 1)}${lines('a', 3)}${lines('i1', 2)}` },
      ],
      { base: { 'a.txt': lines('a', 3) } },
    );
    git(s.dir, ['checkout', '-q', '-b', 'side', 'main']);
    git(s.dir, ['cherry-pick', s.snapshots[1]?.afterSha as string]);
    git(s.dir, ['checkout', '-q', 'main']);
    writeFiles(s.dir, { 'c.txt': 'main moved\n' });
    commitAll(s.dir, 'main moved');
    git(s.dir, ['merge', '--no-ff', '-q', '-m', 'merge', 'agent-run-a']);
    expect(iterationsOf(await bothWays(s, 'a.txt'))).toEqual([
      [1, 1, 2],
      [2, 4, null],
      [5, 6, 1],
    ]);
    const part = await computeTrace(s.src, s.repo, 'a.txt', { range: { start: 4, end: 5 } });
    expect(part).toEqual(
      await computeTrace(s.src, s.repo, 'a.txt', { range: { start: 4, end: 5 }, shortcut: false }),
    );
    await bothWays(s, 'a.txt', 'side');
    git(s.dir, ['reset', '-q', '--hard', 'HEAD~1']);
    squash(s.dir, 'agent-run-a');
    await bothWays(s, 'a.txt');
  });

  it('a WIP before commit, a no-change iteration, a binary file, a rename, two runs on one file and on the same lines', async () => {
    const s = await run(
      [
        { 'a.txt': `${lines('w', 1)}${lines('x', 1)}`, 'bin.dat': 'a\0b\nc\n' },
        { 'a.txt': `${lines('w', 1)}${lines('x', 1)}` },
        { 'bin.dat': 'a\0b\nd\n', 'r.txt': lines('r', 3) },
      ],
      { dirty: { 'a.txt': lines('w', 1) } },
    );
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    expect(iterationsOf(await bothWays(s, 'a.txt'))).toEqual([
      [1, 1, 0],
      [2, 2, 1],
    ]);
    await bothWays(s, 'bin.dat');
    await bothWays(s, 'r.txt');
    await run([{ 'r.txt': null, 'moved.txt': `${lines('r', 3)}more\n` }], { setup: s, runId: 'run-b' });
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-b']);
    expect(iterationsOf(await bothWays(s, 'moved.txt')).at(-1)).toEqual([4, 4, 1]);
    await run([{ 'a.txt': `${lines('w', 1)}${lines('x', 1)}y\n` }], { setup: s, runId: 'run-c' });
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-c']);
    const two = await bothWays(s, 'a.txt');
    expect(two.ranges.at(-1)?.origin?.runId).toBe('run-c');
    // Two runs wrote the same lines: one fast-forwarded, the other merged. Blame names the
    // fast-forwarded run's own commit: that run is named (ancestry before content), the other also.
    await run([{ 'dup.txt': lines('d', 2) }], { setup: s, runId: 'run-d' });
    await run([{ 'dup.txt': lines('d', 2) }], { setup: s, runId: 'run-e' });
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-d']);
    git(s.dir, ['merge', '--no-ff', '-q', '-m', 'merge', 'agent-run-e']);
    const dup = await bothWays(s, 'dup.txt');
    expect(dup.ranges.map((r) => [r.origin?.runId, r.alsoIn])).toEqual([['run-d', ['run-e']]]);
  });

  it('a change binary by content is binary both ways, whatever the run’s attributes say', async () => {
    // The run's own .gitattributes forces text, which snapshot diffs do not read: the records call
    // x.dat binary, as iteration 1's blob (and iteration 2's before) holds a NUL in its first bytes.
    const s = await run([
      { '.gitattributes': 'x.dat diff\n', 'x.dat': `a\0b\n${lines('one', 2)}` },
      { 'x.dat': `${lines('one', 2)}${lines('two', 1)}` },
    ]);
    expect(s.snapshots.map((x) => x.files.find((f) => f.path === 'x.dat')?.binary)).toEqual([true, true]);
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    expect(iterationsOf(await bothWays(s, 'x.dat'))).toEqual([
      [1, 2, null],
      [3, 3, null],
    ]);
  });

  it('a shallow clone that makes an after commit a root: its older lines (iteration 1’s, a person’s) stop the trace, both ways; a graft changes nothing', async () => {
    const s = await run(
      [
        { 'a.txt': `${lines('a', 2)}${lines('i1', 2)}` },
        { 'a.txt': `${lines('a', 2)}${lines('i1', 2)}${lines('i2', 2)}` },
      ],
      { base: { 'a.txt': lines('a', 2) } },
    );
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    // What `git fetch --depth 1` of the run's branch leaves: git takes iteration 2's commit for a root.
    const boundary = s.snapshots[1]?.afterSha as string;
    // Blame gives the boundary every older line, iteration 1's too, though its parent is here: no
    // origin would be a guess (the shortcut once credited them all to iteration 2, the engine to nobody).
    const stopped = async () => {
      for (const shortcut of [true, false])
        expect(await codeOf(computeTrace(s.src, s.repo, 'a.txt', { shortcut }))).toBe('OBJECT_MISSING');
      // The boundary's own lines are traced.
      const own = { range: { start: 5, end: 6 } };
      expect(iterationsOf(await computeTrace(s.src, s.repo, 'a.txt', own))).toEqual([[5, 6, 2]]);
    };
    writeFileSync(join(s.dir, '.git', 'shallow'), `${boundary}\n`);
    await stopped();
    // git reads a line's first 40 hex digits: a CR or a word after them does not hide the boundary.
    for (const line of [`${boundary}\r\n`, `${boundary} x\n`]) {
      writeFileSync(join(s.dir, '.git', 'shallow'), line);
      await stopped();
    }
    // A graft making the after commit a root is ignored by every call (GIT_GRAFT_FILE): as without one.
    remove(join(s.dir, '.git', 'shallow'));
    const whole = iterationsOf(await bothWays(s, 'a.txt'));
    writeFileSync(join(s.dir, '.git', 'info', 'grafts'), `${boundary}\n`);
    expect(iterationsOf(await bothWays(s, 'a.txt'))).toEqual(whole);
    expect(whole).toEqual([
      [1, 2, null],
      [3, 4, 1],
      [5, 6, 2],
    ]);
  });
});

describe('trace and the repository’s blame settings', () => {
  it('blame.ignoreRevsFile cannot move a line from the commit that wrote it to an older one', async () => {
    const s = await run([{ 'a.txt': lines('i', 2) }, { 'a.txt': `${lines('i', 1)}i 2!\n` }], {
      base: { 'a.txt': lines('a', 2) },
    });
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    writeFiles(s.dir, { 'ignored-revs': `${s.snapshots[1]?.afterSha}\n` });
    git(s.dir, ['config', 'blame.ignoreRevsFile', 'ignored-revs']);
    expect(iterationsOf(await bothWays(s, 'a.txt'))).toEqual([
      [1, 1, 1],
      [2, 2, 2],
    ]);
  });

  it('a blame.ignoreRevsFile naming a file that does not exist does not stop trace', async () => {
    const s = await run([{ 'a.txt': lines('i', 2) }], { base: { 'a.txt': lines('a', 2) } });
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    git(s.dir, ['config', 'blame.ignoreRevsFile', '.git-blame-ignore-revs']);
    expect(iterationsOf(await bothWays(s, 'a.txt'))).toEqual([[1, 2, 1]]);
  });
});

describe('real history: vercel/ms replayed as one run and fast-forwarded', () => {
  const BUNDLE = fileURLToPath(new URL('../../fixtures/real-history/vercel-ms.bundle', import.meta.url));
  const BASE = '9b88d1568a52ec9bb67ecc8d2aa224fa38fd41f4';
  const TIP = '1a13a88f8c74604a96be3f4930fefe9765ea3613';

  it('every file the stretch changed traces the same both ways, fast-forwarded and squashed', async () => {
    const root = tempDir('agentgate-real-');
    const snap = newSnapshotter();
    try {
      const dir = `${root}/ms`;
      git(root, ['clone', '-q', '--branch', 'stretch', BUNDLE, dir]);
      const stretch = git(dir, ['rev-list', '--first-parent', '--reverse', `${BASE}..${TIP}`]).split('\n');
      git(dir, ['checkout', '-q', '-B', 'main', BASE]);
      git(dir, ['checkout', '-q', '-b', 'agent']);
      for (const [i, commit] of stretch.entries()) {
        await snap.captureBeforeState(dir, { runId: 'ms-run' });
        git(dir, ['read-tree', '-u', '--reset', commit]);
        await snap.captureAfterState(dir, null, { runId: 'ms-run', iteration: i + 1, taskPrompt: 'replay' });
      }
      git(dir, ['checkout', '-q', 'main']);
      git(dir, ['merge', '--ff-only', '-q', 'agent']);
      const s = { src: provenanceSources(snap), repo: await openRepo(dir) };
      const paths = git(dir, ['diff', '--name-only', '--diff-filter=d', BASE, 'HEAD'])
        .split('\n')
        .filter(Boolean);
      expect(paths.length).toBeGreaterThan(3);
      let fromRun = 0;
      for (const path of paths) {
        const t = await bothWays(s, path);
        fromRun += t.ranges.filter((r) => r.origin !== null).length;
      }
      expect(fromRun).toBeGreaterThan(0);
      git(dir, ['reset', '-q', '--hard', BASE]);
      git(dir, ['merge', '--squash', '-q', 'agent']);
      commitAll(dir, 'squash');
      for (const path of ['index.js', 'readme.md', 'tests.js', 'package.json']) await bothWays(s, path);
    } finally {
      remove(root);
      remove(snap.options.home);
    }
  }, 120_000);
});
