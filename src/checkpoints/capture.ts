import { lstat, realpath, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GitFailedError } from '../errors.js';
import { objectsChangedSince } from '../git/checkpoint-health.js';
import {
  dropIndexEntries,
  entriesWithoutObject,
  listCaptureCandidates,
  listIgnoredTracked,
  stagePaths,
  stageWorkspace,
  unstagePaths,
  writeTree,
} from '../git/checkpoint-index.js';
import type { CheckpointRepo } from '../git/checkpoint-repo.js';
import { indexOrphanPacks } from '../git/pack-index.js';
import type { CandidateListing } from '../git/parsers/ls-files-tagged.js';
import { leadingDirsAreReal } from '../fs/leading-dirs.js';
import { fsPath } from '../fs/path-bytes.js';
import { LATEST_REF } from './message.js';
import { setAsideLooseObjects } from './recovery.js';
import { findSkipped, type Skip } from './skip-rules.js';
import { isUnder, toAbsolute } from './workspace-paths.js';

/**
 * How a state of the workspace is captured: staged into the checkpoint repository's persistent
 * index and written as a tree. The caller holds the checkpoint lock.
 */

/** Up to this many changed paths are staged one by one rather than by a second pass over the work tree. */
const FEW_CHANGES = 1000;

export interface CaptureContext {
  root: string;
  repo: CheckpointRepo;
  /** Git paths never captured (our home, excluded directories). */
  excluded: readonly string[];
  /** Those of `excluded` that are the repository's git dirs: an index entry there (an older capture's) leaves. */
  gitDirs?: readonly string[];
  maxFileSizeBytes: number;
  /** The store's directory: a loose object git cannot read is moved aside there (recovery.ts). */
  storeDir: string;
  /** Check the index's objects whatever the stamps say (an explicit `checkpoint track`: see captureWithoutLost). */
  checkObjects?: boolean;
  /**
   * Directories known to hold a repository of their own, left out as nested ones are although git
   * lists none of their files (a directory the index holds, become a repository with nothing changed).
   */
  nested?: readonly string[];
  /**
   * The files the workspace's repository tracks although the rules ignore them, given the store
   * index's ignored entries (tracked-ignored.ts): captured as git keeps them, never left out.
   */
  trackedIgnored?: (storeIgnored: readonly string[]) => Promise<ReadonlySet<string>>;
}

export interface Capture {
  treeId: string;
  skipped: Skip[];
  /**
   * When the changed paths were staged one by one: how many, their sizes as listed (a symlink or a
   * vanished file as LINK_BYTES), and how many directories hold them or a path taken out of the
   * index (the root included), which bounds the objects the capture wrote (budget-count.ts).
   * Absent after add's full pass.
   */
  staged?: StagedChanges;
}

export interface StagedChanges {
  paths: number;
  bytes: number;
  dirs: number;
}

/** At most what a symlink's blob holds (its target, PATH_MAX); a deleted file adds no blob. */
const LINK_BYTES = 4096;

/**
 * Captures everything the ignore rules do not exclude, except our home, nested repositories,
 * untracked files above the size cap and entries git cannot stage (FIFOs, sockets, devices,
 * unreadable files): those are reported in `skipped`. A tracked file that is ignored now leaves
 * the capture (it is neither kept nor listed as changed).
 */
export async function captureWorkspace(ctx: CaptureContext): Promise<Capture> {
  const [found, storeIgnored] = await Promise.all([
    listCaptureCandidates(ctx.repo, ctx.excluded),
    listIgnoredTracked(ctx.repo),
  ]);
  const tracked = (await ctx.trackedIgnored?.(storeIgnored)) ?? new Set<string>();
  const ignoredTracked = storeIgnored.filter((p) => !tracked.has(p));
  const listing = await withTracked(ctx.root, found, tracked, storeIgnored, ctx.excluded);
  const sizes = new Map<string, number>();
  const skipped = withNested(await findSkipped(ctx.root, listing, ctx.maxFileSizeBytes, sizes), ctx.nested);
  const unstaged = [
    ...ignoredTracked,
    ...skipped.filter((s) => s.indexed).map((s) => s.path),
    ...(ctx.gitDirs ?? []),
  ];
  await unstagePaths(ctx.repo, unstaged);
  const leaveOut = new Set([...ignoredTracked, ...skipped.map((s) => s.path)]);
  const nested = skipped.filter((s) => s.reason === 'nested-repository').map((s) => `${s.path}/`);
  const changed = [...listing.untracked, ...listing.modified].filter(
    (p) => !leaveOut.has(p) && !nested.some((d) => p.startsWith(d)),
  );
  // The listing already found every change: stage just those, unless there are so many (a first
  // capture) that add's parallel pass is faster, or the shape of the tree changed.
  if (changed.length <= FEW_CHANGES && !(await unusualShapes(ctx.root, changed))) {
    await stagePaths(ctx.repo, changed);
    const staged: StagedChanges = {
      paths: changed.length,
      bytes: changed.reduce((sum, p) => sum + (sizes.get(p) ?? LINK_BYTES), 0),
      // write-tree writes a new tree for every directory above a staged or unstaged path.
      dirs: directoriesOf([...changed, ...unstaged]),
    };
    return { treeId: await writeTree(ctx.repo), skipped, staged };
  }
  await stageWorkspace(ctx.repo, [...ctx.excluded, ...skipped.map((s) => s.path)]);
  // add's pass leaves out what the rules ignore, tracked or not: those are staged by name.
  await stagePaths(
    ctx.repo,
    await reachable(
      ctx.root,
      changed.filter((p) => tracked.has(p)),
    ),
  );
  return { treeId: await writeTree(ctx.repo), skipped };
}

/**
 * captureWorkspace that never makes a tree naming an object the store lost (a pack or a loose
 * object gone). write-tree checks the objects of the directories it writes again, and takes the
 * others on trust from the index's cache of trees. So when objects may have gone since the latest
 * checkpoint (objectsChangedSince: a few lstats before the capture writes; the latest marker is
 * written after a checkpoint's objects, packed-refs by a gc), or the capture failed, the index's
 * objects are checked (two git processes). The entries that name a lost object leave the index
 * (the whole index when they are most of it: one removal each would cost more than staging every
 * file), and the capture runs again: it stages those files anew, writing back each object whose
 * file still holds it. `restaged`: those paths (none when nothing was lost). A loose object cut
 * short in place (a crash) changes no stamp: `checkObjects` checks whatever they say.
 */
export async function captureWithoutLost(
  ctx: CaptureContext,
): Promise<{ capture: Capture; restaged: string[] }> {
  const gitDir = ctx.repo.gitDir;
  const since = [join(gitDir, ...LATEST_REF.split('/')), join(gitDir, 'packed-refs')];
  const suspect = ctx.checkObjects === true || objectsChangedSince(gitDir, since);
  const first = await captureWorkspace(ctx).catch((error: unknown) => {
    if (error instanceof GitFailedError) return error;
    throw error;
  });
  const failed = first instanceof GitFailedError;
  if (!suspect && !failed) return { capture: first, restaged: [] };
  // An index git cannot read fails this listing too: the capture's own failure says it (recovery.ts).
  const lost = () =>
    entriesWithoutObject(ctx.repo).catch((error: unknown) => {
      throw failed ? first : error;
    });
  let { missing, ids, entries } = await lost();
  // A pack that lost its index holds its objects still: indexed again, they are not lost.
  if (missing.length > 0 && (await indexOrphanPacks(ctx.repo, gitDir)) > 0) {
    ({ missing, ids, entries } = await lost());
    if (missing.length === 0) return { capture: failed ? await captureWorkspace(ctx) : first, restaged: [] };
  }
  if (missing.length === 0) {
    if (failed) throw first;
    return { capture: first, restaged: [] };
  }
  // An object file that is there but unreadable would never be written again: it goes aside first.
  await setAsideLooseObjects(ctx.storeDir, gitDir, ids);
  if (missing.length * 2 > entries) await rm(ctx.repo.indexFile, { force: true });
  else await dropIndexEntries(ctx.repo, missing);
  return { capture: await captureWorkspace(ctx), restaged: missing };
}

/**
 * `listing` with the workspace's tracked and ignored files that the store's index lacks (git lists
 * no ignored file there) as changed ones. Those it holds are among `storeIgnored`, and the listing
 * names them when they changed, so a capture stages only what is new (one lstat each). Our home and
 * the git dirs stay out, tracked or not.
 */
async function withTracked(
  root: string,
  listing: CandidateListing,
  tracked: ReadonlySet<string>,
  storeIgnored: readonly string[],
  excluded: readonly string[],
): Promise<CandidateListing> {
  if (tracked.size === 0) return listing;
  const listed = new Set([...listing.untracked, ...listing.modified, ...storeIgnored]);
  const more = await reachable(
    root,
    [...tracked].filter((p) => !listed.has(p) && !excluded.some((e) => isUnder(p, e))),
  );
  // One the repository still tracks but that is gone from the disk: nothing to stage.
  const there = await Promise.all(
    more.map((p) =>
      lstat(fsPath(toAbsolute(root, p))).then(
        () => true,
        () => false,
      ),
    ),
  );
  return { ...listing, modified: [...listing.modified, ...more.filter((_, i) => there[i])] };
}

/**
 * `paths` less those beyond a directory replaced by a symbolic link or a file: no file of the
 * workspace's (add's pass takes one the store holds as gone), and one git refuses to stage by name.
 */
async function reachable(root: string, paths: readonly string[]): Promise<string[]> {
  const real = new Map<string, boolean>();
  const ok = await Promise.all(paths.map((p) => leadingDirsAreReal(root, p, real)));
  return paths.filter((_, i) => ok[i]);
}

/** `skipped` with each of `dirs` as a nested repository (held by the index), in place of what lies below it. */
function withNested(skipped: Skip[], dirs: readonly string[] = []): Skip[] {
  if (dirs.length === 0) return skipped;
  const below = (p: string) => dirs.some((d) => isUnder(p, d));
  const added = dirs.map((path): Skip => ({ path, reason: 'nested-repository', size: null, indexed: true }));
  return [...skipped.filter((s) => !below(s.path)), ...added].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
}

/** How many directories hold `paths` (git paths), each counted once, the root included. */
function directoriesOf(paths: readonly string[]): number {
  const dirs = new Set<string>(['']);
  for (const path of paths)
    for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1))
      dirs.add(path.slice(0, at));
  return dirs.size;
}

/**
 * True if staging `paths` one by one could go wrong: one of them is now a directory, or sits below
 * a symlink (a directory replaced by a link). add's full pass handles those shapes; they are rare.
 */
async function unusualShapes(root: string, paths: readonly string[]): Promise<boolean> {
  const parents = [...new Set(paths.map((p) => dirname(toAbsolute(root, p))))];
  const [dirs, links] = await Promise.all([
    Promise.all(
      paths.map((p) =>
        lstat(fsPath(toAbsolute(root, p))).then(
          (st) => st.isDirectory(),
          () => false,
        ),
      ),
    ),
    Promise.all(
      parents.map((d) =>
        realpath(fsPath(d)).then(
          (real) => real.toString() !== d,
          () => false,
        ),
      ),
    ),
  ]);
  return dirs.includes(true) || links.includes(true);
}
