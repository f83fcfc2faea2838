/**
 * The audit fails closed and never guesses: a person's line, file or mode is never credited to a
 * run, however the run's work reached main (squash, merge, fast-forward) or did not reach it.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo.js';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { provenanceSources } from '../../src/provenance/sources.js';
import { computeTrace } from '../../src/provenance/trace.js';
import {
  commitAll,
  git,
  lines,
  recordRunsCleanedUp,
  writeFiles,
  type RunSetup,
} from '../helpers/provenance.js';
import { initRepo, remove } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

const run = recordRunsCleanedUp();

/** One more iteration of `runId` on its branch, on top of whatever the branch holds now. */
async function iterate(s: RunSetup, files: Record<string, string>, runId = 'run-a'): Promise<void> {
  git(s.dir, ['checkout', '-q', `agent-${runId}`]);
  await s.snap.captureBeforeState(s.dir, { runId });
  writeFiles(s.dir, files);
  const iteration = s.snapshots.filter((x) => x.runId === runId).length + 1;
  s.snapshots.push(await s.snap.captureAfterState(s.dir, null, { runId, iteration, taskPrompt: 't' }));
  git(s.dir, ['checkout', '-q', 'main']);
}

/** `text`'s lines with `line` inserted after line `after`. */
function insert(text: string, after: number, ...added: string[]): string {
  const all = text.split('\n');
  all.splice(after, 0, ...added);
  return all.join('\n');
}

const origins = (t: Awaited<ReturnType<typeof computeTrace>>) =>
  t.ranges.map((r) => [r.start, r.end, r.origin === null ? null : `${r.origin.runId}#${r.origin.iteration}`]);

const summary = (a: Awaited<ReturnType<typeof computeAnchor>>) =>
  a.files.map((f) => [f.path, f.method, f.linesFromRuns, f.origins.map((o) => `${o.runId}#${o.iteration}`)]);

describe("a person's commit between two iterations", () => {
  async function between(): Promise<RunSetup> {
    const s = await run([{ 'f.txt': 'a\na1\n' }], { base: { 'f.txt': 'a\n', 'old.txt': 'o\n' } });
    git(s.dir, ['checkout', '-q', 'agent-run-a']);
    writeFiles(s.dir, { 'person.txt': 'mine\n' });
    remove(join(s.dir, 'old.txt'));
    commitAll(s.dir, 'person between iterations');
    git(s.dir, ['checkout', '-q', 'main']);
    await iterate(s, { 'f.txt': 'a\na1\na2\n' });
    return s;
  }

  it('is nobody’s in a squash, though the squash is the last iteration’s tree', async () => {
    const s = await between();
    git(s.dir, ['merge', '--squash', '-q', 'agent-run-a']);
    const anchor = await computeAnchor(s.src, s.repo, commitAll(s.dir, 'squash'));
    expect(anchor.treeMatch).toMatchObject({ runId: 'run-a', iteration: 2 });
    expect(summary(anchor)).toEqual([
      ['f.txt', 'tree', 2, ['run-a#1', 'run-a#2']],
      ['old.txt', 'none', 0, []],
      ['person.txt', 'none', 0, []],
    ]);
    expect(anchor.coverage.filesFromRuns).toBe(1);
  });

  it('is nobody’s in a merge that brings it in with the iterations', async () => {
    const s = await between();
    git(s.dir, ['merge', '-q', '--no-ff', '--no-edit', 'agent-run-a']);
    const anchor = await computeAnchor(s.src, s.repo, 'HEAD');
    expect(summary(anchor)).toEqual([
      ['f.txt', 'ancestry', 2, ['run-a#1', 'run-a#2']],
      ['old.txt', 'none', 0, []],
      ['person.txt', 'none', 0, []],
    ]);
  });
});

describe("a person's mode change", () => {
  it('of a file the run wrote is the person’s: no method, not counted', async () => {
    const s = await run([{ 'run.sh': '#!/bin/sh\necho the agent wrote this\n' }]);
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    chmodSync(join(s.dir, 'run.sh'), 0o755);
    const anchor = await computeAnchor(s.src, s.repo, commitAll(s.dir, 'chmod +x'));
    expect(summary(anchor)).toEqual([['run.sh', 'none', 0, []]]);
    expect(anchor.coverage.filesFromRuns).toBe(0);
  });
});

describe('trace: two runs claim a line', () => {
  it('the run whose own commit blame names wins over one that only matches its lines', async () => {
    const body = `${lines('shared function body line', 6)}`;
    const s = await run([{ 'a.txt': body }], { base: { 'a.txt': 'top\n' } });
    // Run B, never merged and recorded later, wrote the same lines on its own branch.
    await run([{ 'a.txt': `${body}b only\n` }], { setup: s, runId: 'run-b' });
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    const t = await computeTrace(s.src, s.repo, 'a.txt');
    expect(t.ranges.map((r) => [r.start, r.end, r.origin?.runId ?? null, r.alsoIn])).toEqual([
      [1, 6, 'run-a', ['run-b']],
    ]);
  });
});

describe("a person's line that the run also wrote, in another place", () => {
  const base = lines('l', 30);

  it('is not the run’s change applied where main moved: patch-id looks at where the line goes', async () => {
    const s = await run([{ 'f.py': insert(base, 3, 'import os') }], { base: { 'f.py': base } });
    writeFiles(s.dir, { 'f.py': insert(base, 25, 'import os') });
    const c = commitAll(s.dir, "person's own line 26");
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(summary(anchor)).toEqual([['f.py', 'none', 0, []]]);
    expect(origins(await computeTrace(s.src, s.repo, 'f.py', { range: { start: 24, end: 27 } }))).toEqual([
      [24, 25, null],
      [26, 26, null],
      [27, 27, null],
    ]);
  });

  it('after the run landed by fast-forward, a blank line a person adds is the person’s', async () => {
    const s = await run(
      [{ 'f.py': insert(base, 3, 'import os') }, { 'f.py': insert(base, 3, 'import os', '') }],
      {
        base: { 'f.py': base },
      },
    );
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    writeFiles(s.dir, { 'f.py': insert(insert(base, 3, 'import os', ''), 22, '') });
    const anchor = await computeAnchor(s.src, s.repo, commitAll(s.dir, 'a blank line'));
    expect(summary(anchor)).toEqual([['f.py', 'none', 0, []]]);
  });

  it('the run’s change rebased onto a main that moved elsewhere in the file is still patch-id', async () => {
    const s = await run([{ 'f.py': insert(base, 3, 'import os') }], { base: { 'f.py': base } });
    writeFiles(s.dir, { 'f.py': insert(base, 25, 'main moved here') });
    commitAll(s.dir, 'main moved');
    git(s.dir, ['cherry-pick', s.snapshots[0]?.afterSha as string]);
    const anchor = await computeAnchor(s.src, s.repo, 'HEAD');
    expect(summary(anchor)).toEqual([['f.py', 'patch-id', 1, ['run-a#1']]]);
    expect(origins(await computeTrace(s.src, s.repo, 'f.py', { range: { start: 3, end: 5 } }))).toEqual([
      [3, 3, null],
      [4, 4, 'run-a#1'],
      [5, 5, null],
    ]);
  });
});

describe('a file only the WIP before commit changed', () => {
  async function wipOnly(): Promise<RunSetup> {
    return run([{ 'f.txt': 'a\na1\n' }], {
      base: { 'f.txt': 'a\n' },
      dirty: { 'w.txt': 'work in progress\n' },
    });
  }

  it('is iteration 0 in anchor and trace alike, merged or anchored at the WIP commit itself', async () => {
    const s = await wipOnly();
    git(s.dir, ['merge', '-q', '--no-ff', '--no-edit', 'agent-run-a']);
    const wip = s.snapshots[0]?.beforeSha as string;
    for (const rev of ['HEAD', wip]) {
      const anchor = await computeAnchor(s.src, s.repo, rev);
      expect(
        anchor.files.find((f) => f.path === 'w.txt'),
        rev,
      ).toMatchObject({
        method: 'ancestry',
        linesFromRuns: 0,
        origins: [{ runId: 'run-a', iteration: 0, lines: 1 }],
      });
    }
    const t = await computeTrace(s.src, s.repo, 'w.txt');
    expect(origins(t)).toEqual([[1, 1, 'run-a#0']]);
    expect(t.ranges[0]?.origin?.afterSha).toBe(wip);
  });

  it('on an unborn branch (a root WIP commit, and a root staged commit under it) is iteration 0 too', async () => {
    for (const staged of [false, true]) {
      const dir = initRepo();
      const snap = newSnapshotter();
      try {
        writeFiles(dir, { 'pre.txt': 'a person wrote this before the run\n' });
        if (staged) {
          git(dir, ['add', 'pre.txt']);
          writeFiles(dir, { 'pre.txt': 'a person wrote this before the run\nand this after staging\n' });
        }
        const before = await snap.captureBeforeState(dir, { runId: 'u1' });
        writeFiles(dir, { 'a.txt': 'the agent wrote this file\n' });
        await snap.captureAfterState(dir, null, { runId: 'u1', iteration: 1 });
        const [src, repo] = [provenanceSources(snap), await openRepo(dir)];
        const t = await computeTrace(src, repo, 'pre.txt');
        expect(origins(t), `staged: ${staged}`).toEqual(
          staged
            ? [
                [1, 1, 'u1#0'],
                [2, 2, 'u1#0'],
              ]
            : [[1, 1, 'u1#0']],
        );
        expect(t.ranges.map((r) => r.origin?.afterSha)).toEqual(t.ranges.map(() => before.wipSha));
        const root = git(dir, ['rev-list', '--max-parents=0', 'HEAD']);
        const anchor = await computeAnchor(src, repo, root);
        expect(summary(anchor)).toEqual([['pre.txt', 'ancestry', 0, ['u1#0']]]);
        expect(anchor.files[0]?.origins).toEqual([{ runId: 'u1', iteration: 0, lines: 1 }]);
      } finally {
        remove(dir);
        remove(snap.options.home);
      }
    }
  });

  it('squashed, is nobody’s in anchor and trace alike (nothing says its lines came through the run)', async () => {
    const s = await wipOnly();
    git(s.dir, ['merge', '--squash', '-q', 'agent-run-a']);
    const anchor = await computeAnchor(s.src, s.repo, commitAll(s.dir, 'squash'));
    expect(summary(anchor)).toEqual([
      ['f.txt', 'tree', 1, ['run-a#1']],
      ['w.txt', 'none', 0, []],
    ]);
    expect(origins(await computeTrace(s.src, s.repo, 'w.txt'))).toEqual([[1, 1, null]]);
  });
});

describe("a person's own code that looks like an unmerged run's", () => {
  const base = lines('l', 10);
  const agent = {
    'f.py': insert(base, 5, 'if (x) {', '  doAgentThing();', '}'),
    '.gitignore': 'node_modules/\n',
  };

  it('is not the run’s: braces around the person’s line (lines), a short .gitignore (blob)', async () => {
    const s = await run([agent], { base: { 'f.py': base } });
    writeFiles(s.dir, {
      'f.py': insert(base, 5, 'if (x) {', '  personCode();', '}'),
      '.gitignore': 'node_modules/\n',
    });
    const anchor = await computeAnchor(s.src, s.repo, commitAll(s.dir, 'the person’s own code'));
    expect(summary(anchor)).toEqual([
      ['.gitignore', 'none', 0, []],
      ['f.py', 'none', 0, []],
    ]);
    expect(origins(await computeTrace(s.src, s.repo, 'f.py', { range: { start: 6, end: 8 } }))).toEqual([
      [6, 8, null],
    ]);
    expect(origins(await computeTrace(s.src, s.repo, '.gitignore'))).toEqual([[1, 1, null]]);
  });

  it('the run’s own short files squashed onto a main that moved are still the run’s, in anchor and trace', async () => {
    const s = await run([agent], { base: { 'f.py': base } });
    writeFiles(s.dir, { 'm.txt': 'main moved\n' });
    commitAll(s.dir, 'main moved');
    git(s.dir, ['merge', '--squash', '-q', 'agent-run-a']);
    const anchor = await computeAnchor(s.src, s.repo, commitAll(s.dir, 'squash'));
    // Each file says little, but together they are the whole of iteration 1's change.
    expect(summary(anchor)).toEqual([
      ['.gitignore', 'blob', 1, ['run-a#1']],
      ['f.py', 'blob', 3, ['run-a#1']],
    ]);
    expect(origins(await computeTrace(s.src, s.repo, '.gitignore'))).toEqual([[1, 1, 'run-a#1']]);
  });
});
