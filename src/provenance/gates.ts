import { compareGateResults } from '../../types/gate.js';
import type { TraceGate } from '../../types/anchor.js';
import type { GateStore } from '../store/gate-store.js';

/**
 * The newest verdict of each gate on each iteration of a run, in the gates feature's own order
 * (`compareGateResults`, the order of `gate list`): whatever that order is, the last one wins.
 */
export async function newestVerdicts(gates: GateStore, runId: string): Promise<Map<number, TraceGate[]>> {
  const { results } = await gates.list(runId);
  const newest = new Map<string, TraceGate & { iteration: number }>();
  for (const g of [...results].sort(compareGateResults))
    newest.set(`${g.iteration}\0${g.name}`, { iteration: g.iteration, name: g.name, verdict: g.verdict });
  const out = new Map<number, TraceGate[]>();
  for (const g of [...newest.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const list = out.get(g.iteration) ?? [];
    list.push({ name: g.name, verdict: g.verdict });
    out.set(g.iteration, list);
  }
  return out;
}
