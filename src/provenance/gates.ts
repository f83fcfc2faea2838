import { countingVerdicts, sortGateResults } from '../../types/gate-rules.js';
import type { TraceGate } from '../../types/anchor.js';
import type { RecordSources } from './sources.js';

/**
 * The newest verdict of each gate on each iteration of a run, in the one order of verdicts
 * (`sortGateResults`, the order of `gate list`, with the run's after dates): the last one wins.
 * Only verdicts that count: a deleted capture's do not (`countingVerdicts`).
 */
export async function newestVerdicts(src: RecordSources, runId: string): Promise<Map<number, TraceGate[]>> {
  const results = await src.gates.listStrict(runId);
  // The run's snapshots only order verdicts: a run with none needs not read them.
  if (results.length === 0) return new Map();
  const snapshots = await src.snapshotter.listByRun(runId);
  const newest = new Map<string, TraceGate & { iteration: number }>();
  for (const g of sortGateResults(countingVerdicts(results, snapshots), snapshots))
    newest.set(`${g.iteration}\0${g.name}`, { iteration: g.iteration, name: g.name, verdict: g.verdict });
  const out = new Map<number, TraceGate[]>();
  for (const g of [...newest.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const list = out.get(g.iteration) ?? [];
    list.push({ name: g.name, verdict: g.verdict });
    out.set(g.iteration, list);
  }
  return out;
}
