/** A recorded run for the report tests: several iterations, hostile names and task text, a binary file. */
import { chmodSync, rmSync } from 'node:fs';
import type { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import type { Snapshot } from '../../types/snapshot.js';
import { newSnapshotter } from './snapshotter.js';
import { git, remove, repoWithCommit, writeFiles } from './repo.js';

export const HOSTILE_NAME = '<script>window.__xss=1</script>.txt'.replace(/\//g, '');
export const HOSTILE_TASK =
  'Fix <script>window.__xss=2</script> & <img src=x onerror="window.__xss=3">\nsecond line = yes';

export interface RecordedRun {
  dir: string;
  home: string;
  snapshotter: Snapshotter;
  runId: string;
  snapshots: Snapshot[];
  cleanup: () => void;
}

/** Iterations: 1 adds text, hostile and binary files; 2 modifies, renames and deletes; 3 (optional) adds `bulk` files. */
export async function recordRun(opts: { runId?: string; bulk?: number } = {}): Promise<RecordedRun> {
  const runId = opts.runId ?? 'report-run';
  const dir = repoWithCommit({
    'src/app.ts': lines(40, 'base'),
    'docs/old name.md': 'old\n',
    'gone.txt': 'bye\n',
    'run.sh': '#!/bin/sh\n',
  });
  const snapshotter = newSnapshotter();
  const home = snapshotter.options.home;
  const snapshots: Snapshot[] = [];
  const iterate = async (iteration: number, change: () => void, task: string, gate: string) => {
    await snapshotter.captureBeforeState(dir, { runId });
    change();
    snapshots.push(
      await snapshotter.captureAfterState(dir, null, {
        runId,
        iteration,
        taskPrompt: task,
        gatePlanSource: gate,
      }),
    );
  };
  await iterate(
    1,
    () =>
      writeFiles(dir, {
        'src/feature.ts': 'export const feature = 1;\n</script><script>window.__xss=4</script>\n',
        [HOSTILE_NAME]: 'hostile name\n',
        'assets/logo.bin': Buffer.from([0, 1, 2, 3, 255, 0, 7]),
      }),
    HOSTILE_TASK,
    'npm test',
  );
  await iterate(
    2,
    () => {
      writeFiles(dir, {
        'src/app.ts': lines(40, 'base').replace('base 7\n', 'changed 7\n').replace('base 30\n', ''),
      });
      git(dir, ['mv', 'docs/old name.md', 'docs/new name.md']);
      chmodSync(`${dir}/run.sh`, 0o755);
      remove(`${dir}/gone.txt`);
    },
    'Refactor the app',
    'npm run lint && npm test',
  );
  if (opts.bulk) {
    const files: Record<string, string> = {};
    for (let i = 0; i < opts.bulk; i++) files[`bulk/file-${String(i).padStart(5, '0')}.txt`] = `line ${i}\n`;
    await iterate(3, () => writeFiles(dir, files), 'Generate many files', 'none');
  }
  return {
    dir,
    home,
    snapshotter,
    runId,
    snapshots,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function lines(n: number, word: string): string {
  return Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join('');
}
