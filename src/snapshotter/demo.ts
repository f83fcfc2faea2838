import { mkdtemp, rename, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { Snapshotter } from './snapshotter.js';

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
    > & { task: string }
  >;
  verify: Pick<VerifyReport, 'ok'> & { checks: number; failed: number };
  /** Whether the workspace and home were left in place (`demo --keep`); otherwise they are gone. */
  kept: boolean;
}

/** Scripted "agent" edits, one list per iteration: what a coding agent typically does to a repo. */
const ITERATIONS: Array<{ task: string; edit: (ws: string) => Promise<void> }> = [
  {
    task: 'Add a greeting module and document it',
    edit: async (ws) => {
      await put(ws, 'src/greet.js', 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n');
      await put(
        ws,
        'README.md',
        '# demo\n\nA throwaway workspace.\n\nUse `greet(name)` from src/greet.js.\n',
      );
    },
  },
  {
    task: 'Rename the module, add a logo, and tweak the greeting',
    edit: async (ws) => {
      await rename(join(ws, 'src/greet.js'), join(ws, 'src/hello.js'));
      await put(
        ws,
        'src/hello.js',
        'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n\nexport const version = 2;\n',
      );
      await put(
        ws,
        'assets/logo.png',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0x00, 0x10, 0x80]),
      );
    },
  },
  {
    task: 'Remove the notes file and update the logo',
    edit: async (ws) => {
      await rm(join(ws, 'NOTES.txt'));
      await put(
        ws,
        'assets/logo.png',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 0xfe, 0x00, 0x20, 0x40]),
      );
    },
  },
];

/**
 * The main job end to end on a throwaway workspace and home: three iterations of scripted agent
 * edits (a rename and a binary file among them), each captured, then the whole run verified.
 * Never touches the user's real home. The throwaway directories are removed when it ends, whether
 * it succeeded or failed, unless `keep` asks to leave them for a look (the summary then says where).
 */
export async function runDemo(opts: { keep?: boolean } = {}): Promise<DemoSummary> {
  const root = await mkdtemp(join(tmpdir(), 'agentgate-demo-'));
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
  await put(workspace, 'NOTES.txt', 'uncommitted notes from before the run\n');
  const snapshotter = new Snapshotter({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
    onDirty: 'wip-commit',
  });
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
    });
  }
  const report = await snapshotter.verify({ runId });
  const failed = report.checks.filter((c) => !c.ok).length;
  return {
    workspace,
    home,
    runId,
    iterations,
    verify: { ok: report.ok, checks: report.checks.length, failed },
  };
}

async function put(root: string, rel: string, content: string | Buffer): Promise<void> {
  const path = join(root, rel);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}
