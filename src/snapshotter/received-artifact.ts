import { stat } from 'node:fs/promises';
import type { Snapshot } from '../../types/snapshot.js';
import { AgentgateError } from '../errors.js';
import { assertNoLinkInside } from '../fs/inside.js';
import { getTree } from '../git/refs.js';
import { openRepo } from '../git/repo.js';
import { writeTreeDiffToFile } from '../git/unified-diff.js';
import { makeRunArtifactsDir, patchPath } from '../store/paths.js';
import type { SnapshotterCore } from './core.js';

/**
 * Builds the patch artifact of a fetched or imported snapshot the first time it is asked for
 * (`patch`, `report`, `verify`). `fetch` and `import` write none: a pack of a few KB can name two
 * trees whose patch is hundreds of MB (one compressible blob at many paths), and a fetch must not
 * write in proportion to that. Written from git exactly as `after` writes it, atomically, and
 * through no link inside the workspace. Takes the snapshot with this machine's paths; true when the
 * artifact is there afterwards. A failure leaves it missing, which `verify` reports and `patch`
 * works around by reading git.
 */
export async function buildReceivedArtifact(core: SnapshotterCore, snapshot: Snapshot): Promise<boolean> {
  const path = snapshot.patchPath;
  if (path === null || snapshot.recordedWorkspace === undefined) return false;
  if ((await stat(path).catch(() => null))?.isFile() === true) return true;
  try {
    const repo = await openRepo(snapshot.workspace, core.gitOptions());
    await assertNoLinkInside(repo.topLevel, path);
    if (path === patchPath(core.options.artifactsDir, snapshot.runId, snapshot.iteration))
      await makeRunArtifactsDir(core.options.artifactsDir, snapshot.runId);
    const [from, to] = await Promise.all([
      getTree(repo, snapshot.beforeSha),
      getTree(repo, snapshot.afterSha),
    ]);
    await writeTreeDiffToFile(repo, { from, to }, path);
    return true;
  } catch (error) {
    if (error instanceof AgentgateError) return false;
    throw error;
  }
}
