// The snapshot most people would write with simple-git's porcelain: status, add, commit,
// diffSummary, diff, then a patch file and a JSON record. The baseline the library must beat.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { BENCH_IDENTITY } from './git.js';

export interface PorcelainBefore {
  sha: string;
  isDirty: boolean;
}

/**
 * simple-git refuses EDITOR, PAGER, GIT_CONFIG_GLOBAL and most GIT_* variables in the environment,
 * so it gets only PATH and HOME, and the identity as `-c` config as a hand-written tool would.
 */
function open(dir: string): SimpleGit {
  const env = Object.fromEntries(
    ['PATH', 'HOME', 'TMPDIR'].flatMap((k) =>
      process.env[k] === undefined ? [] : [[k, process.env[k] as string]],
    ),
  );
  const config = [`user.name=${BENCH_IDENTITY.name}`, `user.email=${BENCH_IDENTITY.email}`];
  return simpleGit({ baseDir: dir, maxConcurrentProcesses: 1, config }).env(env);
}

/** Before: HEAD and whether the work tree is dirty (a WIP commit when it is). */
export async function porcelainBefore(dir: string): Promise<PorcelainBefore> {
  const git = open(dir);
  const status = await git.status();
  if (!status.isClean()) {
    await git.add(['-A']);
    await git.commit('WIP before run');
  }
  const sha = (await git.revparse(['HEAD'])).trim();
  return { sha, isDirty: !status.isClean() };
}

/** After: commit everything, summary and patch against the before SHA, write both. Returns the file count. */
export async function porcelainAfter(
  dir: string,
  before: PorcelainBefore,
  outDir: string,
  iteration: number,
): Promise<number> {
  const git = open(dir);
  const status = await git.status();
  if (status.isClean()) return 0;
  await git.add(['-A']);
  await git.commit(`[porcelain] iteration ${iteration}`);
  const after = (await git.revparse(['HEAD'])).trim();
  const summary = await git.diffSummary([before.sha, after]);
  const patch = await git.diff(['--binary', before.sha, after]);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'patch.diff'), patch);
  await writeFile(
    join(outDir, 'snapshot.json'),
    JSON.stringify({
      beforeSha: before.sha,
      afterSha: after,
      files: summary.files,
      insertions: summary.insertions,
      deletions: summary.deletions,
    }),
  );
  return summary.files.length;
}
