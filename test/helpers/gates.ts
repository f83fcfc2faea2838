/** Gate verdicts for tests, written through the store as `gate` and `gate record` would. */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateResult, TestCounts } from '../../types/gate.js';
import { GateStore } from '../../src/store/gate-store.js';
import { git } from './repo.js';
import type { Machine } from './sharing.js';

export interface VerdictOptions {
  verdict?: GateResult['verdict'];
  startedAt?: string;
  /** The log text; written as the artifact `gate` keeps. */
  log?: string;
  tests?: TestCounts | null;
  durationMs?: number;
}

/** Stores one verdict of `name` on iteration `iteration` of run `runId` in machine `m`'s home. */
export async function recordVerdict(
  m: Pick<Machine, 'dir' | 'home' | 'artifacts' | 'snap'>,
  runId: string,
  iteration: number,
  name: string,
  opts: VerdictOptions = {},
): Promise<GateResult> {
  const snapshot = (await m.snap.listByRun(runId)).find((s) => s.iteration === iteration);
  if (snapshot === undefined) throw new Error(`no iteration ${iteration} of ${runId}`);
  const verdict = opts.verdict ?? 'pass';
  let log: GateResult['log'] = null;
  if (opts.log !== undefined) {
    const dir = join(m.artifacts, runId, `iteration-${iteration}`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `gate-${name}-${Date.now()}-${Math.random().toString(36).slice(2)}.log`);
    writeFileSync(path, opts.log);
    log = {
      path,
      sha256: createHash('sha256').update(opts.log).digest('hex'),
      bytes: Buffer.byteLength(opts.log),
    };
  }
  return new GateStore(m.home).append({
    runId,
    iteration,
    name,
    treeId: git(m.dir, ['rev-parse', `${snapshot.afterSha}^{tree}`]),
    afterSha: snapshot.afterSha,
    command: ['npm', 'test'],
    observed: true,
    isolated: true,
    startedAt: opts.startedAt ?? new Date().toISOString(),
    durationMs: opts.durationMs ?? 1200,
    exitCode: verdict === 'pass' ? 0 : 1,
    signal: null,
    timedOut: false,
    verdict,
    reason: verdict === 'pass' ? 'exit 0, all tests passed' : 'exit 1',
    tests: opts.tests ?? null,
    log,
    replayOf: null,
  });
}

/** The verdicts of a run in a home, in `gate list` order. */
export async function verdictsOf(home: string, runId: string): Promise<GateResult[]> {
  return (await new GateStore(home).list(runId)).results;
}

/** A verdict without this machine's paths: what must be equal on every machine. */
export function portable(g: GateResult): Omit<GateResult, 'log'> & { log: unknown } {
  return { ...g, log: g.log && { sha256: g.log.sha256, bytes: g.log.bytes } };
}
