import { createReadStream } from 'node:fs';
import { copyFile, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { DiffStats, Snapshot } from '../../types/snapshot.js';
import { streamUnifiedDiff, unifiedDiff, writeUnifiedDiffToFile } from '../git/unified-diff.js';
import { getDiffStats } from '../git/diff-stats.js';
import { openRepo } from '../git/repo.js';
import { resolveRevision } from '../git/refs.js';
import { AmbiguousIdError, SnapshotNotFoundError } from '../errors.js';
import { assertSafeId } from '../store/paths.js';
import { writeOutputData, writeOutputFile } from '../fs/atomic.js';
import { sha256File } from './patch-artifact.js';
import type { SnapshotterCore } from './core.js';
import { buildReceivedArtifact } from './received-artifact.js';

/**
 * One snapshot by id, or by a full or abbreviated after SHA when that is unambiguous. With
 * `exact` (a deletion), a SHA that several snapshots share is ambiguous even where one of them
 * made the commit.
 */
export async function getSnapshot(
  core: SnapshotterCore,
  idOrSha: string,
  opts: { exact?: boolean } = {},
): Promise<Snapshot> {
  // Every id and SHA (full or abbreviated) is in the safe set: anything else is no id at all.
  assertSafeId(idOrSha, 'snapshot id');
  const direct = await core.store.load(idOrSha);
  if (direct) return core.withLocalPaths(direct);
  const matches = await core.store.findByPrefix(idOrSha);
  if (matches.length === 1) return core.withLocalPaths(matches[0] as Snapshot);
  // A no-change iteration shares its after SHA with the iteration that made that commit: the SHA names the one that made it.
  const makers = matches.filter((m) => m.beforeSha !== m.afterSha);
  if (!opts.exact && makers.length === 1 && matches.every((m) => m.afterSha === makers[0]?.afterSha))
    return core.withLocalPaths(makers[0] as Snapshot);
  if (matches.length > 1) {
    // Several snapshots of one after commit (iterations that changed nothing) share even a full SHA.
    const oneCommit = matches.every((m) => m.afterSha === matches[0]?.afterSha);
    throw new AmbiguousIdError(
      `${idOrSha} matches ${matches.length} snapshots (${matches
        .slice(0, 5)
        .map((m) => m.id)
        .join(
          ', ',
        )}); ${oneCommit ? 'they share that after commit: give the snapshot id' : 'give more characters'}`,
      {
        details: { matches: matches.map((m) => m.id) },
      },
    );
  }
  throw new SnapshotNotFoundError(
    `no snapshot ${JSON.stringify(idOrSha.slice(0, 80))}; "list" shows the stored ones`,
    { details: { id: idOrSha.slice(0, 200) } },
  );
}

/**
 * The run's snapshots, ordered by iteration, with this machine's paths. A fetched run's patch
 * artifacts are built here when missing: its reader (a report, an attestation, a gate) needs them.
 */
export async function listByRun(
  core: SnapshotterCore,
  runId: string,
  opts: { loadable?: boolean } = {},
): Promise<Snapshot[]> {
  const id = assertSafeId(runId, 'run id');
  // `loadable`: a linked file that is missing or does not load is left out (verify reports it) instead of thrown.
  const stored = opts.loadable ? (await core.store.inspectRun(id)).snapshots : await core.store.loadByRun(id);
  const snapshots = await Promise.all(stored.map((s) => core.withLocalPaths(s)));
  for (const snapshot of snapshots) await buildReceivedArtifact(core, snapshot);
  return snapshots;
}

/**
 * The snapshot's patch: the artifact when it is intact, else regenerated from git. Writes it to
 * `outputFile` when given (atomically), else returns the text.
 */
export async function generatePatch(
  core: SnapshotterCore,
  snapshot: Snapshot,
  outputFile?: string,
): Promise<string> {
  if (snapshot.beforeSha === snapshot.afterSha) {
    if (outputFile) await writeOutputData(outputFile, '');
    return '';
  }
  snapshot = await core.withLocalPaths(snapshot);
  await buildReceivedArtifact(core, snapshot);
  const artifact = await intactArtifact(snapshot);
  if (artifact !== null) {
    if (outputFile) await writeOutputFile(outputFile, (temp) => copyFile(artifact, temp));
    return outputFile ? '' : readFile(artifact, 'utf8');
  }
  const repo = await openRepo(snapshot.workspace, core.gitOptions());
  if (outputFile) {
    await writeOutputFile(outputFile, (temp) =>
      writeUnifiedDiffToFile(repo, snapshot.beforeSha, snapshot.afterSha, temp),
    );
    return '';
  }
  return unifiedDiff(repo, snapshot.beforeSha, snapshot.afterSha);
}

/**
 * The snapshot's patch as generatePatch has it, handed to `consume` chunk by chunk (from the
 * artifact when it is intact, else from git), so that a patch of any size is never held whole.
 */
export async function streamPatch(
  core: SnapshotterCore,
  snapshot: Snapshot,
  consume: (patch: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  if (snapshot.beforeSha === snapshot.afterSha) return consume(Readable.from([]));
  snapshot = await core.withLocalPaths(snapshot);
  await buildReceivedArtifact(core, snapshot);
  const artifact = await intactArtifact(snapshot);
  if (artifact !== null) return consume(createReadStream(artifact));
  const repo = await openRepo(snapshot.workspace, core.gitOptions());
  await streamUnifiedDiff(repo, snapshot.beforeSha, snapshot.afterSha, consume);
}

/** Diff statistics between any two revisions of a workspace. */
export async function stats(
  core: SnapshotterCore,
  workspace: string,
  from: string,
  to: string,
): Promise<DiffStats> {
  const repo = await openRepo(workspace, core.gitOptions());
  return getDiffStats(repo, await resolveRevision(repo, from), await resolveRevision(repo, to));
}

/** The snapshot's patch artifact when it is there with its recorded sha256, else null. */
async function intactArtifact(snapshot: Snapshot): Promise<string | null> {
  if (snapshot.patchPath === null) return null;
  const sha256 = await sha256File(snapshot.patchPath).catch(() => null);
  return sha256 === snapshot.patchSha256 ? snapshot.patchPath : null;
}
