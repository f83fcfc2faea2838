import { randomUUID } from 'node:crypto';
import {
  AGENT_TRACE_VERSION,
  type AgentTraceRecord,
  type Trace,
  type TraceRange,
} from '../../types/anchor.js';

/**
 * A Trace as an Agent Trace v0.1.0 record (cursor/agent-trace, README section 6.1): one file,
 * one conversation per run and iteration that wrote lines of it (contributor `ai`; the lines of a
 * WIP before commit, iteration 0, are `unknown`: a person or a tool left them uncommitted), its
 * ranges at the traced revision. Lines no iteration wrote are in no conversation. The snapshot is
 * linked as a `urn:agentgate:snapshot:<id>` resource; iteration, after commit and gates go in the
 * `dev.agentgate` metadata, as section 7.2 asks of vendor data.
 * `isWip`: whether a range's lines are a WIP before commit's (traceWithWip says; the Trace gives
 * them iteration 0, as it gives a recorded iteration numbered 0). Without it, every iteration 0 is
 * taken for the WIP's.
 */
export function toAgentTrace(
  trace: Trace,
  tool: { version: string },
  now = new Date(),
  isWip: (range: TraceRange) => boolean = (r) => r.origin?.iteration === 0,
): AgentTraceRecord {
  const groups = new Map<
    string,
    {
      wip: boolean;
      snapshotId: string;
      ranges: Array<{ start_line: number; end_line: number }>;
    }
  >();
  const meta: Array<Record<string, unknown>> = [];
  for (const r of trace.ranges) {
    if (r.origin === null) continue;
    const wip = isWip(r);
    // A run's WIP before commits are all iteration 0: the snapshot tells them apart.
    const key = `${r.origin.runId}\0${r.origin.iteration}\0${wip}\0${r.origin.snapshotId}`;
    const g = groups.get(key) ?? { wip, snapshotId: r.origin.snapshotId, ranges: [] };
    g.ranges.push({ start_line: r.start, end_line: r.end });
    groups.set(key, g);
    meta.push({
      start_line: r.start,
      end_line: r.end,
      commit: r.commit,
      run_id: r.origin.runId,
      iteration: r.origin.iteration,
      after_sha: r.origin.afterSha,
      gates: r.origin.gates,
      also_in: r.alsoIn,
    });
  }
  return {
    version: AGENT_TRACE_VERSION,
    id: randomUUID(),
    timestamp: now.toISOString(),
    vcs: { type: 'git', revision: trace.rev },
    tool: { name: 'agentgate-snapshotter', version: tool.version },
    files: [
      {
        path: trace.path,
        conversations: [...groups.values()].map((g) => ({
          contributor: { type: g.wip ? ('unknown' as const) : ('ai' as const) },
          ranges: g.ranges,
          related: [{ type: 'agentgate-snapshot', url: `urn:agentgate:snapshot:${g.snapshotId}` }],
        })),
      },
    ],
    metadata: { 'dev.agentgate': { ranges: meta } },
  };
}
