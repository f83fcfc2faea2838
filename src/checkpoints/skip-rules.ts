import { accessSync, constants, lstatSync } from 'node:fs';
import { fsPath } from '../fs/path-bytes.js';
import { isRepositoryEntry } from '../git/dot-git.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import type { CandidateListing } from '../git/parsers/ls-files-tagged.js';
import { decodeMessage, namedRecords, type CheckpointMeta } from './message.js';
import { toAbsolute } from './workspace-paths.js';

/** A path a capture leaves out, workspace-relative. */
export interface Skip {
  path: string;
  reason: 'too-large' | 'nested-repository' | 'unreadable';
  size: number | null;
  /** True if the store's index still holds an older version that must leave the capture. */
  indexed: boolean;
}

/** Past this many characters of paths, a checkpoint keeps only that its capture skipped `many`. */
export const SKIPPED_CHARS = 20_000;

/** What a checkpoint's commit keeps of its capture's skips (CheckpointMeta.skipped): paths by reason. */
export function skipRecord(skips: readonly Skip[]): Pick<CheckpointMeta, 'skipped'> {
  if (skips.length === 0) return {};
  const byReason: Record<string, string[]> = {};
  for (const s of skips) (byReason[s.reason] ??= []).push(s.path);
  return { skipped: JSON.stringify(byReason).length > SKIPPED_CHARS ? 'many' : byReason };
}

/** Whether the checkpoint `record` kept the skips `kept` (skipRecord) of a capture. */
export function sameSkips(record: RefRecord, kept: Pick<CheckpointMeta, 'skipped'>): boolean {
  return JSON.stringify(decodeMessage(record.body, record.date).skipped) === JSON.stringify(kept.skipped);
}

/**
 * Whether the capture of the checkpoint `rev` names (of each, when it names several of one tree)
 * skipped a path, or a directory above it: the checkpoint had something there that it does not
 * hold, so a restore to it leaves the path alone rather than deleting it. `many`: every path it
 * does not hold. A checkpoint made before skips were kept skipped nothing, as far as this knows.
 */
export function skippedBy(records: readonly RefRecord[], rev: string): (path: string) => boolean {
  const kept = namedRecords(records, rev).map((r) => decodeMessage(r.body, r.date).skipped);
  if (kept.includes('many')) return () => true;
  return underAny(skippedPathsOf(records, rev));
}

/** The paths the capture of the checkpoint `rev` names recorded as skipped (none for `many`). */
export function skippedPathsOf(records: readonly RefRecord[], rev: string): string[] {
  return namedRecords(records, rev).flatMap((r) => {
    const k = decodeMessage(r.body, r.date).skipped;
    return k === undefined || k === 'many' ? [] : Object.values(k).flat();
  });
}

/** Whether a path is one of `paths` or lies below one. */
export function underAny(paths: Iterable<string>): (path: string) => boolean {
  const roots = new Set(paths);
  if (roots.size === 0) return () => false;
  return (path) => {
    for (let p = path; ; p = p.slice(0, p.lastIndexOf('/'))) {
      if (roots.has(p)) return true;
      if (!p.includes('/')) return false;
    }
  };
}

/**
 * How many candidates are stat'ed between two turns of the event loop. The calls are synchronous:
 * two thread-pool round trips per file (lstat, access) cost far more than the calls themselves
 * (100,000 files: 1.5 s in batches of 64 promises, 0.26 s so); the turns keep timers, such as an
 * agent hook's budget, running.
 */
const STAT_SLICE = 512;

/**
 * Decides what the capture skips: nested repositories (git reports them, it does not enter them),
 * entries git cannot read (FIFOs, sockets, devices, unreadable files) and regular files above `maxBytes` among the new and changed files git listed. Only those
 * candidates are stat'ed, never the whole tree. A file that vanished since the listing is ignored.
 * The sizes seen go into `sizes` (what a capture may add to the store: budget-count.ts).
 */
export async function findSkipped(
  root: string,
  listing: CandidateListing,
  maxBytes: number,
  /** Filled with the size of every regular file among the candidates. */
  sizes?: Map<string, number>,
): Promise<Skip[]> {
  const skipped: Skip[] = listing.nestedRepos.map((path) => ({
    path,
    reason: 'nested-repository',
    size: null,
    indexed: false,
  }));
  const candidates = [
    ...listing.untracked.map((path) => ({ path, indexed: false })),
    ...listing.modified.map((path) => ({ path, indexed: true })),
  ];
  const repoDirs = new Map<string, boolean>();
  for (let i = 0; i < candidates.length; i += STAT_SLICE) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const c of candidates.slice(i, i + STAT_SLICE)) {
      // A directory the store already held that has become a repository of its own: git still
      // lists the files below it, as it had them. It leaves the capture whole, as a nested one does.
      const nested = nestedRepositoryAbove(root, c.path, repoDirs);
      if (nested !== null) {
        if (!skipped.some((s) => s.path === nested))
          skipped.push({ path: nested, reason: 'nested-repository', size: null, indexed: true });
        continue;
      }
      const shape = fileShape(toAbsolute(root, c.path));
      if (shape === null) continue;
      if (typeof shape === 'number') sizes?.set(c.path, shape);
      if (shape === 'unreadable')
        skipped.push({ path: c.path, reason: 'unreadable', size: null, indexed: c.indexed });
      else if (shape > maxBytes)
        skipped.push({ path: c.path, reason: 'too-large', size: shape, indexed: c.indexed });
    }
  }
  return skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The directories (below the root) above any of `paths` that hold a repository of their own, each
 * named once: the outermost of each chain. One check per distinct directory.
 */
export function nestedRepositoriesAbove(root: string, ...lists: Iterable<string>[]): string[] {
  const seen = new Map<string, boolean>();
  const found = new Set<string>();
  for (const paths of lists)
    for (const path of paths) {
      const dir = nestedRepositoryAbove(root, path, seen);
      if (dir !== null) found.add(dir);
    }
  return [...found].sort();
}

/** The outermost directory above `path` (below the root) that holds a `.git`, or null; `seen` caches each directory's answer. */
export function nestedRepositoryAbove(root: string, path: string, seen: Map<string, boolean>): string | null {
  for (let at = path.indexOf('/'); at > 0; at = path.indexOf('/', at + 1)) {
    const dir = path.slice(0, at);
    let isRepo = seen.get(dir);
    if (isRepo === undefined) {
      try {
        // Only a .git git takes for a repository's: an empty one leaves its files the project's.
        // (A name that is not UTF-8 is only looked up: its bytes cannot be joined as text.)
        const dotGit = fsPath(toAbsolute(root, `${dir}/.git`));
        isRepo =
          typeof dotGit === 'string'
            ? isRepositoryEntry(dotGit)
            : lstatSync(dotGit, { throwIfNoEntry: false }) !== undefined;
      } catch {
        isRepo = false; // not a directory any more (ENOTDIR), or unreadable: no repository git would take
      }
      seen.set(dir, isRepo);
    }
    if (isRepo) return dir;
  }
  return null;
}

/**
 * A regular file's size; 'unreadable' for what git cannot stage (a FIFO, a socket, a device, a
 * file we may not read); null for anything else (directories, symlinks, which are captured as their
 * target text) or a vanished path.
 */
function fileShape(path: string): number | 'unreadable' | null {
  let st;
  try {
    st = lstatSync(fsPath(path), { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (st === undefined) return null;
  if (st.isFIFO() || st.isSocket() || st.isCharacterDevice() || st.isBlockDevice()) return 'unreadable';
  if (!st.isFile()) return null;
  try {
    accessSync(fsPath(path), constants.R_OK);
    return st.size;
  } catch {
    return 'unreadable';
  }
}
