import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { writeCommitStatement } from '../../src/provenance/attest-commit.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { openRepo } from '../../src/git/repo.js';
import { gitCallCount } from '../../src/git/runner.js';
import { verifyAnchor } from '../../src/provenance/verify-anchor.js';
import { expectCode } from '../helpers/codes.js';
import { recordVerdict } from '../helpers/gates.js';
import {
  commitAll,
  git,
  lines,
  recordRunsCleanedUp,
  squash,
  writeFiles,
  type RunSetup,
} from '../helpers/provenance.js';
import { tempDir, remove } from '../helpers/repo.js';

const run = recordRunsCleanedUp();
const machine = (s: RunSetup) => ({
  dir: s.dir,
  home: s.snap.options.home,
  artifacts: s.snap.options.artifactsDir,
  snap: s.snap,
});

describe('trace', () => {
  it('blame by iteration after a squash: origins, newest verdicts, lines before the run and after it', async () => {
    const s = await run(
      [
        { 'a.txt': `${lines('a', 2)}${lines('i1', 2)}` },
        { 'a.txt': `${lines('a', 2)}${lines('i1', 2)}${lines('i2', 1)}` },
      ],
      {
        base: { 'a.txt': lines('a', 2) },
      },
    );
    await recordVerdict(machine(s), 'run-a', 1, 'test', {
      verdict: 'fail',
      startedAt: '2026-01-01T00:00:00Z',
    });
    await recordVerdict(machine(s), 'run-a', 1, 'test', {
      verdict: 'pass',
      startedAt: '2026-01-01T00:01:00Z',
    });
    squash(s.dir, 'agent-run-a');
    writeFiles(s.dir, { 'a.txt': `${lines('a', 2)}${lines('i1', 2)}${lines('i2', 1)}person\n` });
    commitAll(s.dir, 'person');
    const t = await computeTrace(s.src, s.repo, 'a.txt');
    const squashSha = git(s.dir, ['rev-parse', 'HEAD~1']);
    expect(t.ranges.map((r) => [r.start, r.end, r.origin?.iteration ?? null])).toEqual([
      [1, 2, null],
      [3, 4, 1],
      [5, 5, 2],
      [6, 6, null],
    ]);
    expect(t.ranges[1]?.commit).toBe(squashSha);
    expect(t.ranges[1]?.origin?.gates).toEqual([{ name: 'test', verdict: 'pass' }]);
    expect(t.ranges[1]?.origin?.snapshotId).toBe(s.snapshots[0]?.id);
    const part = await computeTrace(s.src, s.repo, 'a.txt', { range: { start: 4, end: 5 } });
    expect(part.ranges.map((r) => [r.start, r.end])).toEqual([
      [4, 4],
      [5, 5],
    ]);
  });

  it("blames the stored bytes when the repository's config names a textconv driver for the file", async () => {
    const s = await run([{ 'notes.txt': 'one\ntwo\n' }], {
      base: { 'notes.txt': 'one\n', '.gitattributes': 'notes.txt diff=crypt\n' },
    });
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    git(s.dir, ['config', 'diff.crypt.textconv', 'cat']);
    const t = await computeTrace(s.src, await openRepo(s.dir), 'notes.txt');
    expect(t.ranges.map((r) => [r.start, r.end, r.origin?.iteration ?? null])).toEqual([
      [1, 1, null],
      [2, 2, 1],
    ]);
  });

  it('WIP lines are iteration 0; two runs on one line: the newest recorded, and alsoIn', async () => {
    const s = await run([{ 'a.txt': `${lines('w', 1)}${lines('x', 1)}` }], {
      dirty: { 'a.txt': lines('w', 1) },
    });
    await run([{ 'b.txt': lines('b', 2) }], { setup: s, runId: 'run-b' });
    await run([{ 'b.txt': lines('b', 2) }], { setup: s, runId: 'run-c' });
    squash(s.dir, 'agent-run-a');
    squash(s.dir, 'agent-run-b');
    const a = await computeTrace(s.src, s.repo, 'a.txt');
    expect(a.ranges.map((r) => r.origin?.iteration)).toEqual([0, 1]);
    const b = await computeTrace(s.src, s.repo, 'b.txt');
    expect(b.ranges).toHaveLength(1);
    expect(b.ranges[0]?.origin?.runId).toBe('run-c');
    expect(b.ranges[0]?.alsoIn).toEqual(['run-b']);
  });

  it("every iteration of a run that names the path is kept, whatever it names; other runs' snapshots are not needed", async () => {
    const s = await run([
      { 'a.txt': lines('a', 2) },
      { 'b.txt': lines('b', 2) },
      { 'a.txt': `${lines('a', 2)}${lines('a3', 1)}` },
    ]);
    await run([{ 'c.txt': lines('c', 1) }], { setup: s, runId: 'run-c' });
    squash(s.dir, 'agent-run-a');
    squash(s.dir, 'agent-run-c');
    const scanned = await computeTrace(s.src, s.repo, 'a.txt');
    // --run reads the runs through their records, without the scan: the same answer.
    expect(await computeTrace(s.src, s.repo, 'a.txt', { runIds: ['run-a', 'run-c'] })).toEqual(scanned);
    expect(scanned.ranges.map((r) => [r.start, r.end, r.origin?.iteration])).toEqual([
      [1, 2, 1],
      [3, 3, 3],
    ]);
  });

  it('a fixed number of git processes, whatever the lines, iterations and runs', async () => {
    const count = async (iterations: number, runs: number): Promise<number> => {
      const s = await run(
        Array.from({ length: iterations }, (_, i) => ({ 'a.txt': lines('a', 10 * (i + 1)) })),
      );
      for (let r = 1; r < runs; r++) {
        await run([{ [`other${r}.txt`]: 'x\n', 'a.txt': lines('r', r) }], { setup: s, runId: `run-${r}` });
      }
      squash(s.dir, 'agent-run-a');
      const before = gitCallCount();
      const t = await computeTrace(s.src, s.repo, 'a.txt');
      expect(t.ranges.at(-1)?.origin?.iteration).toBe(iterations);
      return gitCallCount() - before;
    };
    // Other runs that wrote a.txt add the patch-id and lines steps (3 processes), once for all of them.
    expect(await count(6, 5)).toBe(await count(1, 2));
    // REV and PATH, blame, the runs' and the blamed commits, one diff of the blamed commits and the
    // runs' steps, one cat-file of their blobs (which are binary, by content), one rev-list (is the
    // blamed commit older than an iteration it is matched with: predating.ts).
    expect(await count(6, 1)).toBe(6);
  });

  it('bad paths and revisions', async () => {
    const s = await run([{ 'a.txt': 'x\n' }]);
    await expectCode(computeTrace(s.src, s.repo, 'missing.txt'), 'PATH_NOT_FOUND');
    // Outside the top level: git would refuse the path outright; we say it is no file of the repository.
    await expectCode(computeTrace(s.src, s.repo, '../a.txt'), 'PATH_NOT_FOUND');
    await expectCode(computeTrace(s.src, s.repo, join(s.dir, '..', 'a.txt')), 'PATH_NOT_FOUND');
    // A path as a shell gives it names the file as its tree does.
    const rev = { rev: 'agent-run-a' };
    const plain = await computeTrace(s.src, s.repo, 'a.txt', rev);
    expect(plain.ranges[0]?.origin?.iteration).toBe(1);
    expect(await computeTrace(s.src, s.repo, './a.txt', rev)).toEqual(plain);
    expect(await computeTrace(s.src, s.repo, join(s.repo.topLevel, 'a.txt'), rev)).toEqual(plain);
    // An absolute path through a symbolic link to the repository (macOS /tmp) names the same file.
    const link = join(tempDir('agentgate-link-'), 'repo');
    symlinkSync(s.repo.topLevel, link);
    expect(await computeTrace(s.src, s.repo, join(link, 'a.txt'), rev)).toEqual(plain);
    await expectCode(computeTrace(s.src, s.repo, 'a.txt', { rev: 'no-such-rev' }), 'REVISION_NOT_FOUND');
    // A message search names the commit too: `:/text:path` would be a search for "text:path".
    expect(git(s.dir, ['log', '-1', '--format=%s', 'agent-run-a'])).toContain('Run run-a iteration 1');
    expect(await computeTrace(s.src, s.repo, 'a.txt', { rev: ':/Run run-a iteration 1' })).toEqual(plain);
    // A full id starts blame at once: the errors are the same.
    const full = git(s.dir, ['rev-parse', 'HEAD']);
    await expectCode(computeTrace(s.src, s.repo, 'missing.txt', { rev: full }), 'PATH_NOT_FOUND');
    await expectCode(computeTrace(s.src, s.repo, 'a.txt', { rev: 'f'.repeat(40) }), 'REVISION_NOT_FOUND');
    await expectCode(
      computeTrace(s.src, s.repo, 'README.md', { rev: full, runIds: ['nope'] }),
      'RUN_NOT_FOUND',
    );
    expect(await computeTrace(s.src, s.repo, 'README.md', { rev: full })).toEqual(
      await computeTrace(s.src, s.repo, 'README.md'),
    );
    await expectCode(computeAnchor(s.src, s.repo, 'no-such-rev'), 'REVISION_NOT_FOUND');
    await expectCode(computeAnchor(s.src, s.repo, 'HEAD', { runIds: ['nope'] }), 'RUN_NOT_FOUND');
  });
});

describe('verify --anchor and attest --commit', () => {
  it('recomputes a recorded anchor, fails on a forged one, and says when there is none', async () => {
    const s = await run([{ 'a.txt': lines('a', 3) }]);
    const c = squash(s.dir, 'agent-run-a');
    await expectCode(verifyAnchor(s.src, s.repo, c), 'ANCHOR_NOT_FOUND');
    const anchor = await computeAnchor(s.src, s.repo, c);
    await s.src.anchors.save(anchor);
    expect((await verifyAnchor(s.src, s.repo, c)).ok).toBe(true);
    await s.src.anchors.save({ ...anchor, coverage: { ...anchor.coverage, linesFromRuns: 99 } });
    const forged = await verifyAnchor(s.src, s.repo, c);
    expect(forged.ok).toBe(false);
    expect(forged.checks[0]?.detail).toContain('coverage');
  });

  it("attests a commit whose tree is an iteration's after tree, and refuses any other", async () => {
    const s = await run([{ 'a.txt': lines('a', 3) }]);
    await recordVerdict(machine(s), 'run-a', 1, 'test');
    const c = squash(s.dir, 'agent-run-a');
    const out = tempDir('agentgate-attest-');
    try {
      const written = await writeCommitStatement(s.src, s.repo, c, join(out, 's.json'));
      expect(written).toMatchObject({ subjects: 1, runId: 'run-a', iteration: 1 });
      const statement = JSON.parse(readFileSync(written.file, 'utf8'));
      expect(statement.subject).toEqual([{ name: `commit/${c}`, digest: { gitCommit: c } }]);
      expect(statement.predicate.result).toBe('PASSED');
      writeFiles(s.dir, { 'a.txt': 'edited\n' });
      commitAll(s.dir, 'person');
      const err = (await writeCommitStatement(s.src, s.repo, 'HEAD', join(out, 't.json')).catch(
        (e: unknown) => e,
      )) as {
        code: string;
        exitCode: number;
      };
      expect([err.code, err.exitCode]).toEqual(['COMMIT_NOT_GATED', 3]);
    } finally {
      remove(out);
    }
  });
});
