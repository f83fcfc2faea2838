/** Test-side helpers for the gate suites: a run with recorded iterations, quiet echo targets, JUnit tests for Node's runner. */
import { Writable } from 'node:stream';
import { Gates } from '../../src/gates/gates.js';
import type { Snapshot } from '../../types/snapshot.js';
import { repoWithCommit, writeFiles } from './repo.js';
import { newSnapshotter } from './snapshotter.js';

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
