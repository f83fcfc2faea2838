import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import type { GateResult } from '../../types/gate.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { Gates } from '../gates/gates.js';
import { Snapshotter } from '../snapshotter/snapshotter.js';
import { makeTempDir } from '../fs/temp-dir.js';
import { makeDirs } from '../fs/make-dirs.js';

export interface DemoSummary {
  workspace: string;
  home: string;
  runId: string;
  iterations: Array<
    Pick<
      Snapshot,
      | 'iteration'
      | 'id'
      | 'filesChanged'
      | 'insertions'
      | 'deletions'
      | 'beforeSha'
      | 'afterSha'
      | 'patchPath'
    > & { task: string; gate: Pick<GateResult, 'name' | 'verdict' | 'reason' | 'tests'> }
  >;
  verify: Pick<VerifyReport, 'ok'> & { checks: number; failed: number };
  /** Whether the workspace and home were left in place (`demo --keep`); otherwise they are gone. */
  kept: boolean;
}

/** The demo project's test, run by the `test` gate with Node's own test runner. */
const greetTest = (module: string, expected: string) =>
  [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    `import { greet } from '../src/${module}';`,
    '',
    `test('greets by name', () => assert.equal(greet('Ada'), '${expected}'));`,
    "test('greets nobody politely', () => assert.match(greet(''), /^H/));",
    '',
  ].join('\n');

/**
 * Scripted "agent" edits, one list per iteration: what a coding agent typically does to a repo.
 * The second iteration changes the greeting without its test, so its gate goes red; the third
 * fixes the test and the gate is green again.
 */
const ITERATIONS: Array<{ task: string; edit: (ws: string) => Promise<void> }> = [
  {
    task: 'Add a greeting module with a test, and document it',
    edit: async (ws) => {
      await put(ws, 'src/greet.js', 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n');
      await put(ws, 'test/greet.test.js', greetTest('greet.js', 'Hello, Ada!'));
      await put(
        ws,
        'README.md',
        '# demo\n\nA throwaway workspace.\n\nUse `greet(name)` from src/greet.js.\n',
      );
    },
  },
  {
    task: 'Rename the module, add a logo, and make the greeting friendlier',
    edit: async (ws) => {
      await rename(join(ws, 'src/greet.js'), join(ws, 'src/hello.js'));
      await put(
        ws,
        'src/hello.js',
        'export function greet(name) {\n  return `Hi there, ${name}!`;\n}\n\nexport const version = 2;\n',
      );
      await put(ws, 'test/greet.test.js', greetTest('hello.js', 'Hello, Ada!'));
      await put(
        ws,
        'assets/logo.png',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0x00, 0x10, 0x80]),
      );
    },
  },
  {
    task: 'Update the test for the new greeting, remove the notes file and update the logo',
    edit: async (ws) => {
      await put(ws, 'test/greet.test.js', greetTest('hello.js', 'Hi there, Ada!'));
      await rm(join(ws, 'NOTES.txt'));
      await put(
        ws,
        'assets/logo.png',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 0xfe, 0x00, 0x20, 0x40]),
      );
    },
  },
];

/** The `test` gate: Node's test runner writing JUnit, as a project's CI would run it. */
const TEST_GATE = [
  process.execPath,
  '--test',
  '--test-reporter=junit',
  '--test-reporter-destination=junit.xml',
  // The file itself: Node 22 reads a directory argument as a file, and Node 20 has no globs.
  'test/greet.test.js',
];

/**
 * The main job end to end on a throwaway workspace and home: three iterations of scripted agent
 * edits (a rename and a binary file among them), each captured and judged by a `test` gate in an
 * isolated checkout (red on the second, green again on the third), then the whole run verified,
 * requiring the last iteration's test gate to have passed.
 * Never touches the user's real home. The throwaway directories are removed when it ends, whether
 * it succeeded or failed, unless `keep` asks to leave them for a look (the summary then says where).
 */
export async function runDemo(opts: { keep?: boolean } = {}): Promise<DemoSummary> {
  const root = await makeTempDir('agentgate-demo-');
  try {
    return { ...(await demoIn(root)), kept: opts.keep === true };
  } finally {
    if (opts.keep !== true) await rm(root, { recursive: true, force: true });
  }
}

async function demoIn(root: string): Promise<Omit<DemoSummary, 'kept'>> {
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  await put(workspace, 'README.md', '# demo\n\nA throwaway workspace.\n');
  await put(workspace, 'package.json', '{ "name": "demo", "private": true, "type": "module" }\n');
  await put(workspace, 'NOTES.txt', 'uncommitted notes from before the run\n');
  const snapshotter = new Snapshotter({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
    onDirty: 'wip-commit',
  });
  const gates = new Gates(snapshotter);
  const runId = 'demo-run';
  const iterations: DemoSummary['iterations'] = [];
  for (const [index, step] of ITERATIONS.entries()) {
    const before = await snapshotter.captureBeforeState(workspace, { runId, init: true });
    await step.edit(workspace);
    const s = await snapshotter.captureAfterState(workspace, before, {
      runId,
      iteration: index + 1,
      taskPrompt: step.task,
      gatePlanSource: 'demo',
    });
    iterations.push({
      iteration: s.iteration,
      id: s.id,
      filesChanged: s.filesChanged,
      insertions: s.insertions,
      deletions: s.deletions,
      beforeSha: s.beforeSha,
      afterSha: s.afterSha,
      patchPath: s.patchPath,
      task: step.task,
      gate: await testGate(gates, workspace, runId, s.iteration),
    });
  }
  const report = await gates.verify({ runId }, { requireGates: ['test'] });
  const failed = report.checks.filter((c) => !c.ok).length;
  return {
    workspace,
    home,
    runId,
    iterations,
    verify: { ok: report.ok, checks: report.checks.length, failed },
  };
}

/** Runs the test gate on the iteration's after tree; its output goes only to the gate's log artifact. */
async function testGate(
  gates: Gates,
  workspace: string,
  runId: string,
  iteration: number,
): Promise<DemoSummary['iterations'][number]['gate']> {
  const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
  const result = await gates.run(workspace, {
    runId,
    iteration,
    name: 'test',
    command: TEST_GATE,
    junit: ['junit.xml'],
    isolated: true,
    echo: { stdout: discard(), stderr: discard() },
  });
  return { name: result.name, verdict: result.verdict, reason: result.reason, tests: result.tests };
}

async function put(root: string, rel: string, content: string | Buffer): Promise<void> {
  const path = join(root, rel);
  await makeDirs(dirname(path));
  await writeFile(path, content);
}
