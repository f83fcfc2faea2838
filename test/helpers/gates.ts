/** Gate helpers for tests: verdicts written through the store as `gate` and `gate record` would, runs with recorded iterations, quiet echo targets, JUnit tests for Node's runner. */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateResult, TestCounts } from '../../types/gate.js';
import { GateStore } from '../../src/store/gate-store.js';
import { git, repoWithCommit, writeFiles } from './repo.js';
import type { Machine } from './sharing.js';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { AgentgateError } from '../../src/errors.js';
import { Gates } from '../../src/gates/gates.js';
import type { Snapshot } from '../../types/snapshot.js';
import { newSnapshotter } from './snapshotter.js';
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
  // An observed run keeps its output, empty or not (verify fails an observed verdict without a log).
  const text = opts.log ?? '';
  const dir = join(m.artifacts, runId, `iteration-${iteration}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `gate-${name}-${Date.now()}-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(path, text);
  const log: GateResult['log'] = {
    path,
    sha256: createHash('sha256').update(text).digest('hex'),
    bytes: Buffer.byteLength(text),
  };
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
    // Facts that give the verdict (verify recomputes it): an error is a command that could not start.
    exitCode: verdict === 'pass' ? 0 : verdict === 'fail' ? 1 : null,
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

/** A verdict without this machine's paths and receipt date: what must be equal on every machine. */
export function portable({ receivedAt: _, ...g }: GateResult): Omit<GateResult, 'log' | 'receivedAt'> & {
  log: unknown;
} {
  return { ...g, log: g.log && { sha256: g.log.sha256, bytes: g.log.bytes } };
}
/** Whether `pid` is a live process: a zombie waiting for its new parent to reap it is not (Linux `/proc`). */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A Node test file: `pass` tests that pass and `fail` that fail. */
export function nodeTests(pass: number, fail = 0): string {
  const lines = ["import { test } from 'node:test';"];
  for (let i = 0; i < pass; i++) lines.push(`test('passes ${i}', () => {});`);
  for (let i = 0; i < fail; i++) lines.push(`test('fails ${i}', () => { throw new Error('broken ${i}'); });`);
  return `${lines.join('\n')}\n`;
}

/** The argv that runs Node's own test runner on `file`, writing JUnit to `junit`. */
export function nodeTestCommand(file: string, junit = 'junit.xml'): string[] {
  return [process.execPath, '--test', '--test-reporter=junit', `--test-reporter-destination=${junit}`, file];
}

/** Echo targets that swallow the check's output (the log artifact keeps it). */
export function quiet(): { stdout: Writable; stderr: Writable } {
  const sink = () => new Writable({ write: (_c, _e, done) => done() });
  return { stdout: sink(), stderr: sink() };
}

/**
 * A workspace with a run `r1` of `iterations.length` iterations, each writing its files; JUnit
 * output files are ignored by the repository (as a real project does).
 */
export async function gatedRun(iterations: Array<Record<string, string>>): Promise<{
  dir: string;
  gates: Gates;
  snapshots: Snapshot[];
}> {
  const dir = repoWithCommit({ 'README.md': 'hello\n', '.gitignore': 'junit*.xml\n' });
  const snapshotter = newSnapshotter();
  const snapshots: Snapshot[] = [];
  for (const [i, files] of iterations.entries()) {
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    writeFiles(dir, files);
    snapshots.push(await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: i + 1 }));
  }
  return { dir, gates: new Gates(snapshotter), snapshots };
}

/** The paths a GATE_TREE_MISMATCH names (`details.paths`); fails the test on any other outcome. */
export async function mismatchPaths(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentgateError);
  expect((error as AgentgateError).code).toBe('GATE_TREE_MISMATCH');
  return (error as AgentgateError).details.paths;
}
