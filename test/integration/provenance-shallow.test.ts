/**
 * `trace` in a shallow clone (`git clone --depth 1` over file://) where a person renamed the run's
 * file after the run: blame stops at the boundary under the new name, which no run's records name.
 * A line there that a run of this repository may have written is OBJECT_MISSING, never origin
 * null; lines no run could have written trace as in a full clone.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo.js';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { codeOf } from '../helpers/codes.js';
import {
  commitAll,
  git,
  recordRunsCleanedUp,
  squash,
  writeFiles,
  type RunSetup,
} from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

/** A depth-1 clone of the set-up's main, with the runs' commits fetched (as `fetch` of the runs does). */
function shallowClone(s: RunSetup, depth = 1): string {
  const clone = join(s.snap.options.home, 'shallow');
  git(s.dir, ['clone', '-q', '--depth', `${depth}`, '--branch', 'main', `file://${s.dir}`, clone]);
  git(clone, ['fetch', '-q', 'origin', 'refs/agentgate/runs/*:refs/agentgate/runs/*']);
  return clone;
}

const origins = (t: Awaited<ReturnType<typeof computeTrace>>) =>
  t.ranges.map((r) => [r.start, r.end, r.origin?.iteration ?? null]);

describe('trace in a shallow clone, of a file renamed after the run', () => {
  it('a boundary line a run may have written is OBJECT_MISSING; lines no run could have written are nobody’s', async () => {
    const s = await run(
      [
        {
          'a.txt': 'base one\nbase two\nagent line written by iteration one here\n',
          'c.txt': '}\n',
          'd.txt': 'ok\n',
        },
      ],
      { base: { 'a.txt': 'base one\nbase two\n', 'other.txt': '}\nwritten by a person alone\n' } },
    );
    squash(s.dir, 'agent-run-a');
    git(s.dir, ['mv', 'a.txt', 'b.txt']);
    git(s.dir, ['mv', 'd.txt', 'e.txt']);
    const renamed = commitAll(s.dir, 'a person renames');
    expect(origins(await computeTrace(s.src, s.repo, 'b.txt'))).toEqual([
      [1, 2, null],
      [3, 3, 1],
    ]);
    const repo = await openRepo(shallowClone(s));
    const error = await computeTrace(s.src, repo, 'b.txt').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'OBJECT_MISSING', details: { commit: renamed } });
    // -L of the lines the run did not write, another file (its `}` is a run's line too, but says
    // too little): nobody's, as in a full clone.
    expect(origins(await computeTrace(s.src, repo, 'b.txt', { range: { start: 1, end: 2 } }))).toEqual([
      [1, 2, null],
    ]);
    expect(origins(await computeTrace(s.src, repo, 'other.txt'))).toEqual([[1, 2, null]]);
    // The run's own file, byte for byte, renamed: a version a run made, however short.
    expect(await codeOf(computeTrace(s.src, repo, 'e.txt'))).toBe('OBJECT_MISSING');
  });
});

describe('trace in a shallow clone whose boundary’s parent came in by other refs', () => {
  it('a line blamed on the boundary that its change did not add is OBJECT_MISSING, never origin null', async () => {
    const agent = 'agent line written by iteration one here\n';
    const s = await run([{ 'a.txt': `base one\n${agent}` }], { base: { 'a.txt': 'base one\n' } });
    squash(s.dir, 'agent-run-a');
    git(s.dir, ['commit', '-q', '--allow-empty', '-m', 'a person, later']);
    const keep = git(s.dir, ['rev-parse', 'HEAD']).trim();
    writeFiles(s.dir, { 'a.txt': `base one\n${agent}person line on top of the squash\n` });
    const top = commitAll(s.dir, 'a person adds a line');
    // Refs like the anchors' bring the boundary's parent (and the squash) into the clone; the
    // clone stays shallow at `top`, so blame gives `top` every line.
    git(s.dir, ['update-ref', 'refs/agentgate/anchors/x', keep]);
    const clone = shallowClone(s);
    git(clone, ['fetch', '-q', 'origin', 'refs/agentgate/anchors/*:refs/agentgate/anchors/*']);
    expect(git(clone, ['rev-parse', '--is-shallow-repository']).trim()).toBe('true');
    const repo = await openRepo(clone);
    const error = await computeTrace(s.src, repo, 'a.txt').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'OBJECT_MISSING', details: { commit: top, parent: keep } });
    // The boundary's own line is traced (a person's); the clone unshallowed, the run's line is the run's.
    expect(origins(await computeTrace(s.src, repo, 'a.txt', { range: { start: 3, end: 3 } }))).toEqual([
      [3, 3, null],
    ]);
    git(clone, ['fetch', '-q', '--unshallow', 'origin']);
    expect(origins(await computeTrace(s.src, repo, 'a.txt'))).toEqual([
      [1, 1, null],
      [2, 2, 1],
      [3, 3, null],
    ]);
  });
});

describe('trace in a shallow clone whose boundary is a run’s rename of another run’s file', () => {
  it('the renamed lines are older than the boundary: OBJECT_MISSING, never origin null', async () => {
    const text = 'agent line written by run a, renamed later by run b\n';
    const s = await run([{ 'a.txt': text }]);
    // A ref like an anchor's keeps run a's squash, which then comes into the clone.
    git(s.dir, ['update-ref', 'refs/agentgate/anchors/x', squash(s.dir, 'agent-run-a')]);
    await run([{ 'a.txt': null, 'b.txt': text }], { setup: s, runId: 'run-b' });
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-b']);
    writeFiles(s.dir, { 'c.txt': 'a person, later\n' });
    commitAll(s.dir, 'a person, later');
    expect(origins(await computeTrace(s.src, s.repo, 'b.txt'))).toEqual([[1, 1, 1]]);
    // The boundary is run b's own commit; its parent came in with the runs' refs.
    const clone = shallowClone(s, 2);
    git(clone, ['fetch', '-q', 'origin', 'refs/agentgate/anchors/*:refs/agentgate/anchors/*']);
    const repo = await openRepo(clone);
    const error = await computeTrace(s.src, repo, 'b.txt').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'OBJECT_MISSING', details: { commit: s.snapshots[1]?.afterSha } });
  });
});

describe('trace in a shallow clone whose boundary is a run’s WIP before commit', () => {
  it('a file only the WIP commit wrote is OBJECT_MISSING there, iteration 0 in a full clone', async () => {
    const s = await run([{ 'b.txt': 'agent line written by iteration one here\n' }], {
      dirty: { 'w.txt': 'a person wrote this before the run began, uncommitted\n' },
    });
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    expect(origins(await computeTrace(s.src, s.repo, 'w.txt'))).toEqual([[1, 1, 0]]);
    const repo = await openRepo(shallowClone(s, 2));
    const error = await computeTrace(s.src, repo, 'w.txt').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'OBJECT_MISSING', details: { commit: s.snapshots[0]?.beforeSha } });
  });
});

describe('anchor of a merge that is the shallow boundary, its parents in by other refs', () => {
  it('OBJECT_MISSING, never a weaker anchor than the full clone’s; unshallowed, the same', async () => {
    const s = await run([{ 'a.txt': 'agent line written by iteration one here\n' }]);
    writeFiles(s.dir, { 'p.txt': 'a person on main\n' });
    const person = commitAll(s.dir, 'a person on main');
    git(s.dir, ['merge', '-q', '--no-ff', '--no-edit', 'agent-run-a']);
    const merge = git(s.dir, ['rev-parse', 'HEAD']).trim();
    const full = await computeAnchor(s.src, s.repo, merge, { now: new Date(0) });
    expect(full.files.map((f) => [f.path, f.method])).toEqual([['a.txt', 'ancestry']]);
    // A ref like an anchor's brings the merge's first parent; the runs' refs bring the second.
    git(s.dir, ['update-ref', 'refs/agentgate/anchors/x', person]);
    const clone = shallowClone(s);
    git(clone, ['fetch', '-q', 'origin', 'refs/agentgate/anchors/*:refs/agentgate/anchors/*']);
    expect(git(clone, ['rev-parse', '--is-shallow-repository']).trim()).toBe('true');
    const repo = await openRepo(clone);
    const error = await computeAnchor(s.src, repo, merge).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'OBJECT_MISSING',
      details: { commit: merge, parent: s.snapshots[0]?.afterSha },
    });
    git(clone, ['fetch', '-q', '--unshallow', 'origin']);
    expect(await computeAnchor(s.src, repo, merge, { now: new Date(0) })).toEqual(full);
  });
});
