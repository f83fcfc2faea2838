/**
 * A recorded iteration numbered 0 (`after --iteration 0`) is the agent's like any other: its lines
 * are counted, listed in `runs`, traced with its gates and `ai` in Agent Trace. Only a WIP before
 * commit's lines (also reported as iteration 0) were there when the run began.
 */
import { describe, expect, it } from 'vitest';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { toAgentTrace } from '../../src/provenance/agent-trace.js';
import { computeTrace, traceWithWip } from '../../src/provenance/trace.js';
import { buildAnchorReport } from '../../src/report/anchor-model.js';
import { recordVerdict } from '../helpers/gates.js';
import { git, recordRunsCleanedUp, squash, writeFiles, type RunSetup } from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

const BASE = Array.from({ length: 5 }, (_, i) => `base line ${i + 1} of the shared file with letters\n`).join(
  '',
);
const ZERO = 'agent wrote this at its iteration numbered zero\n';
const ONE = 'agent wrote this at its iteration numbered one\n';
const WIP = 'person wrote this before the run began, uncommitted\n';

/** Run `run-a` on branch `agent-run-a`: iterations 0 and 1 appending to s.txt (after `dirty`, the WIP), a gate on 0. */
async function zeroThenOne(dirty?: string): Promise<RunSetup> {
  const s = await run([], { base: { 's.txt': BASE } });
  git(s.dir, ['checkout', '-q', 'agent-run-a']);
  let text = BASE;
  if (dirty !== undefined) writeFiles(s.dir, { 's.txt': (text += dirty) });
  for (const [iteration, line] of [ZERO, ONE].entries()) {
    await s.snap.captureBeforeState(s.dir, { runId: 'run-a' });
    writeFiles(s.dir, { 's.txt': (text += line) });
    s.snapshots.push(
      await s.snap.captureAfterState(s.dir, null, { runId: 'run-a', iteration, taskPrompt: 't' }),
    );
  }
  const m = { dir: s.dir, home: s.snap.options.home, artifacts: s.snap.options.artifactsDir, snap: s.snap };
  await recordVerdict(m, 'run-a', 0, 'test');
  git(s.dir, ['checkout', '-q', 'main']);
  return s;
}

const byLine = (t: Awaited<ReturnType<typeof computeTrace>>) =>
  t.ranges.map((r) => [
    r.start,
    r.end,
    r.origin && [r.origin.iteration, r.origin.afterSha, r.origin.gates.length],
  ]);

describe('a recorded iteration numbered 0', () => {
  it('fast-forwarded: its after commit is counted, listed and traced with its gate, shortcut or not', async () => {
    const s = await zeroThenOne();
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    const [zero, one] = s.snapshots;
    const anchor = await computeAnchor(s.src, s.repo, 'HEAD~1');
    expect(anchor.files.map((f) => [f.method, f.linesFromRuns, f.origins])).toEqual([
      ['ancestry', 1, [{ runId: 'run-a', iteration: 0, lines: 1 }]],
    ]);
    expect(anchor.runs).toEqual([{ runId: 'run-a', iterations: [0] }]);
    const expected = [
      [1, 5, null],
      [6, 6, [0, zero?.afterSha, 1]],
      [7, 7, [1, one?.afterSha, 0]],
    ];
    expect(byLine(await computeTrace(s.src, s.repo, 's.txt'))).toEqual(expected);
    expect(byLine(await computeTrace(s.src, s.repo, 's.txt', { shortcut: false }))).toEqual(expected);
    const { trace, wip } = await traceWithWip(s.src, s.repo, 's.txt');
    const record = toAgentTrace(trace, { version: '0' }, undefined, (r) => wip.has(r));
    expect(record.files[0]?.conversations.map((c) => [c.contributor?.type, c.ranges])).toEqual([
      ['ai', [{ start_line: 6, end_line: 6 }]],
      ['ai', [{ start_line: 7, end_line: 7 }]],
    ]);
  });

  it('squashed: both iterations’ lines are the run’s', async () => {
    const s = await zeroThenOne();
    squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, 'HEAD');
    expect(anchor.coverage).toMatchObject({ linesAdded: 2, linesFromRuns: 2 });
    expect(anchor.runs).toEqual([{ runId: 'run-a', iterations: [0, 1] }]);
    expect((await buildAnchorReport(s.src, s.repo, 'HEAD')).files[0]?.notFromRuns).toEqual([]);
  });

  it('after a WIP before commit: the WIP’s line is still not counted, iteration 0’s is', async () => {
    const s = await zeroThenOne(WIP);
    const [zero] = s.snapshots;
    squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, 'HEAD');
    expect(anchor.coverage).toMatchObject({ linesAdded: 3, linesFromRuns: 2 });
    expect(anchor.runs).toEqual([{ runId: 'run-a', iterations: [0, 1] }]);
    const { trace, wip } = await traceWithWip(s.src, s.repo, 's.txt');
    // The WIP's line names the WIP commit (iteration 0's before commit) and no gate.
    expect(byLine(trace).slice(1, 3)).toEqual([
      [6, 6, [0, zero?.beforeSha, 0]],
      [7, 7, [0, zero?.afterSha, 1]],
    ]);
    const record = toAgentTrace(trace, { version: '0' }, undefined, (r) => wip.has(r));
    expect(record.files[0]?.conversations.map((c) => c.contributor?.type)).toEqual(['unknown', 'ai', 'ai']);
    const report = await buildAnchorReport(s.src, s.repo, 'HEAD');
    expect(report.files[0]?.notFromRuns).toEqual([{ start: 6, end: 6 }]);
    // Two origins of iteration 0: the WIP's, judged by no gate, and the recorded iteration's, with its gate.
    expect(report.files[0]?.origins.map((o) => [o.iteration, o.lines, o.gates.length])).toEqual([
      [0, 1, 0],
      [0, 1, 1],
      [1, 1, 0],
    ]);
  });
});

describe('a WIP before commit in the middle of a run', () => {
  it('each WIP commit’s lines name that WIP commit and the snapshot that started from it', async () => {
    const s = await run([], { base: { 's.txt': BASE } });
    git(s.dir, ['checkout', '-q', 'agent-run-a']);
    let text = BASE;
    // A person's uncommitted line before iteration 1, and another between iterations 1 and 2.
    for (const [iteration, dirty, line] of [
      [1, WIP, ONE],
      [
        2,
        'person wrote this between the two iterations, uncommitted\n',
        'agent wrote this at iteration two\n',
      ],
    ] as const) {
      writeFiles(s.dir, { 's.txt': (text += dirty) });
      await s.snap.captureBeforeState(s.dir, { runId: 'run-a' });
      writeFiles(s.dir, { 's.txt': (text += line) });
      s.snapshots.push(
        await s.snap.captureAfterState(s.dir, null, { runId: 'run-a', iteration, taskPrompt: 't' }),
      );
    }
    git(s.dir, ['checkout', '-q', 'main']);
    const [one, two] = s.snapshots;
    const expected = [
      [1, 5, null],
      [6, 6, [0, one?.beforeSha, one?.id]],
      [7, 7, [1, one?.afterSha, one?.id]],
      [8, 8, [0, two?.beforeSha, two?.id]],
      [9, 9, [2, two?.afterSha, two?.id]],
    ];
    const bySnapshot = (t: Awaited<ReturnType<typeof computeTrace>>) =>
      t.ranges.map((r) => [
        r.start,
        r.end,
        r.origin && [r.origin.iteration, r.origin.afterSha, r.origin.snapshotId],
      ]);
    const base = git(s.dir, ['rev-parse', 'main']).trim();
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a']);
    expect(bySnapshot(await computeTrace(s.src, s.repo, 's.txt'))).toEqual(expected);
    git(s.dir, ['checkout', '-q', '-b', 'squashed', base]);
    squash(s.dir, 'agent-run-a');
    const { trace, wip } = await traceWithWip(s.src, s.repo, 's.txt', { rev: 'HEAD' });
    expect(bySnapshot(trace)).toEqual(expected);
    // Agent Trace: each WIP's lines relate to their own snapshot.
    const record = toAgentTrace(trace, { version: '0' }, undefined, (r) => wip.has(r));
    expect(record.files[0]?.conversations.map((c) => [c.contributor?.type, c.related?.[0]?.url])).toEqual([
      ['unknown', `urn:agentgate:snapshot:${one?.id}`],
      ['ai', `urn:agentgate:snapshot:${one?.id}`],
      ['unknown', `urn:agentgate:snapshot:${two?.id}`],
      ['ai', `urn:agentgate:snapshot:${two?.id}`],
    ]);
    // The anchor counts the WIPs' lines as one origin of iteration 0, none of them the agent's.
    const anchor = await computeAnchor(s.src, s.repo, 'HEAD');
    expect(anchor.files.map((f) => [f.linesAdded, f.linesFromRuns, f.origins])).toEqual([
      [
        4,
        2,
        [
          { runId: 'run-a', iteration: 0, lines: 2 },
          { runId: 'run-a', iteration: 1, lines: 1 },
          { runId: 'run-a', iteration: 2, lines: 1 },
        ],
      ],
    ]);
  });
});
