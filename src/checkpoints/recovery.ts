import { copyFile, lstat, rename, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { AgentgateError, StoreCorruptError } from '../errors.js';
import { readRegularFile } from '../fs/regular-file.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { randomHex } from '../fs/random.js';
import { parsePackedRefs, refsWithoutObject, repoDamage, type RepoDamage } from '../git/checkpoint-health.js';
import { indexFromTree } from '../git/checkpoint-index.js';
import { indexOrphanPacks } from '../git/pack-index.js';
import type { CheckpointRepo } from '../git/checkpoint-repo.js';
import { readRef } from '../git/refs.js';
import type { GitOptions } from '../git/runner.js';
import { BASELINE_REF, CHECKPOINT_REF_PREFIX, LATEST_REF, META_REF_PREFIX, SAFETY_REF } from './message.js';
import type { StoreLocation } from './project-id.js';
import { makeDirs } from '../fs/make-dirs.js';

/**
 * A damaged checkpoint store (its git dir gone or garbled, a marker ref holding garbage) made every
 * command fail with git's own error for ever. Every command now finds the damage first, from the
 * store's files alone (checkpoint-health.ts). `track` (and so every agent hook) moves the damaged
 * part aside, into `<store>/damaged-<time>/` where nothing is deleted, and goes on: with the same
 * checkpoints when only markers were broken (the track sets `latest`, and `baseline` when it was
 * one of them) or the index (a cache of the latest checkpoint, made again from it), with a new
 * empty store when git could no longer open it. Every other command fails with STORE_CORRUPT
 * saying so; those that read no index (list, status) do not look at it.
 */

const MARKERS = [LATEST_REF, BASELINE_REF, SAFETY_REF];

/** What is damaged in the store at `location`, its index too when `withIndex`; null when nothing is. */
export async function findDamage(location: StoreLocation, withIndex = false): Promise<RepoDamage | null> {
  const damage = await repoDamage(location.gitDir, MARKERS, withIndex ? location.indexFile : undefined, [
    CHECKPOINT_REF_PREFIX,
    META_REF_PREFIX,
  ]);
  return isDamage(damage) ? damage : null;
}

function isDamage(damage: RepoDamage): boolean {
  return (
    damage.unusable !== null ||
    damage.brokenRefs.length > 0 ||
    damage.garbledPacked.length > 0 ||
    damage.index !== null
  );
}

/** git's words for a ref it cannot follow or a packed-refs it cannot read (LC_ALL=C). */
const REF_FAILURE =
  /missing object|does not point to a valid object|bad object|unexpected line in .*packed-refs|broken ref|unable to read|corrupt/i;

/**
 * git's words for an index (or the shared index of a split one) it cannot read (LC_ALL=C); not
 * for one it may not open (permissions, I/O), which is no damage.
 */
const INDEX_FAILURE =
  /index file (?:smaller than expected|corrupt|open failed: No such file or directory)|bad signature 0x|bad index version|broken index, expect|unknown index entry format/;

/**
 * The damage behind a failed git call, when a damaged ref explains it: a ref of ours naming an
 * object that is gone (asked of git only now) or that is no commit, or what the files show; with `withIndex` (a command
 * that uses the index), an index git says it cannot read, which the file check (indexDamage) may
 * not see: a missing or cut short shared index. Null when the failure is not of that kind, or
 * nothing is damaged: the caller throws the failure itself.
 */
export async function damageBehind(
  repo: GitOptions,
  location: StoreLocation,
  error: unknown,
  withIndex = false,
): Promise<RepoDamage | null> {
  // A ref naming a blob or a tree: git lists it without failing (refs.ts listRefRecords).
  const notCommits = error instanceof StoreCorruptError ? error.details.notCommits : undefined;
  if (Array.isArray(notCommits))
    return { unusable: null, brokenRefs: notCommits as string[], garbledPacked: [], index: null };
  if (!(error instanceof AgentgateError) || error.code !== 'GIT_FAILED') return null;
  const said = `${error.message}\n${String(error.details.stderr ?? '')}`;
  const index = withIndex ? INDEX_FAILURE.exec(said) : null;
  if (index !== null) {
    const found = (await findDamage(location, true)) ?? {
      unusable: null,
      brokenRefs: [],
      garbledPacked: [],
      index: null,
    };
    if (found.unusable !== null || found.index !== null) return found;
    return { ...found, index: `git cannot read its index ("${index[0]}")` };
  }
  if (!REF_FAILURE.test(said)) return null;
  const found = await findDamage(location);
  if (found !== null) return found;
  const missing = await refsWithoutObject(repo, location.gitDir, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
  return missing.length === 0
    ? null
    : { unusable: null, brokenRefs: missing, garbledPacked: [], index: null };
}

/**
 * After a git failure that a lost object explains: whether packs that had lost their index were
 * indexed again (pack-index.ts), so that the call can run again and find every checkpoint. Their
 * objects were never gone, and setting the refs that name them aside would lose them.
 */
export async function reindexedPacks(
  repo: GitOptions,
  location: StoreLocation,
  error: unknown,
): Promise<boolean> {
  if (!(error instanceof AgentgateError) || error.code !== 'GIT_FAILED') return false;
  if (!REF_FAILURE.test(`${error.message}\n${String(error.details.stderr ?? '')}`)) return false;
  return (await indexOrphanPacks(repo, location.gitDir)) > 0;
}

function what(damage: RepoDamage): string {
  if (damage.unusable !== null) return damage.unusable;
  const parts = damage.index === null ? [] : [damage.index];
  if (damage.garbledPacked.length > 0) parts.push('its packed-refs file has lines git cannot read');
  if (damage.brokenRefs.length > 0)
    parts.push(`its ref ${damage.brokenRefs.map(refName).join(', ')} names no checkpoint`);
  return parts.join(', and ');
}

/** A marker by its name (latest), any other ref whole. */
function refName(ref: string): string {
  return ref.startsWith(META_REF_PREFIX) ? ref.slice(META_REF_PREFIX.length) : ref;
}

/** The failure of a command other than track on a damaged store, with the way out. */
export function corruptError(location: StoreLocation, damage: RepoDamage): StoreCorruptError {
  const after =
    damage.unusable !== null
      ? 'starts a new, empty store (the checkpoints in it can no longer be read)'
      : damage.index === null
        ? 'goes on with its checkpoints'
        : 'goes on with its checkpoints, its index made again from the latest one';
  return new StoreCorruptError(
    `the checkpoint store ${location.dir} is damaged: ${what(damage)}; "checkpoint track" (as the next agent hook does) moves the damaged part aside into ${join(location.dir, 'damaged-<time>')} and ${after}`,
    { details: { store: location.dir, damage: what(damage) } },
  );
}

/**
 * Moves the damaged part aside (the caller holds the lock): the broken marker refs and a damaged
 * index (rebuildIndex then makes it again), or, when git cannot open the repository, the git dir
 * with the index and the counts that described it (a stale index would name objects that are
 * gone). Returns what was done, in words.
 */
export async function setAside(location: StoreLocation, damage: RepoDamage): Promise<string> {
  const parts =
    damage.unusable === null
      ? [
          ...damage.brokenRefs.map((ref) => join(location.gitDir, ...ref.split('/'))),
          ...(damage.index === null ? [] : [location.indexFile]),
        ]
      : [location.gitDir, location.indexFile, join(location.dir, 'budget.json'), location.upkeepFile];
  const aside = asideDir(location.dir);
  if (damage.unusable === null) await dropPacked(location, damage, aside);
  for (const part of parts) {
    if ((await lstat(part).catch(() => null)) === null) continue;
    const to = join(aside, relative(location.dir, part));
    await makeDirs(dirname(to));
    await rename(part, to);
  }
  const next =
    damage.unusable !== null
      ? 'a new store was started (the checkpoints of the old one could not be read)'
      : damage.index === null
        ? 'its checkpoints are kept'
        : 'its checkpoints are kept (the index, a cache of the latest one, is made again from it)';
  return `the checkpoint store ${location.dir} was damaged (${what(damage)}): the damaged part was moved to ${aside} and ${next}`;
}

/** `<store>/damaged-<time>-<random>`: where a damaged part goes (nothing is deleted). */
function asideDir(storeDir: string): string {
  return join(storeDir, `damaged-${new Date().toISOString().replace(/[-:.]/g, '')}-${randomHex(3)}`);
}

/**
 * Moves aside the loose object files of `ids` (objects git says it lacks) that are there all the
 * same: cut short or emptied, as a crash leaves a file whose data never reached the disk ("object
 * file is empty"). git writes no object whose file it finds, readable or not, so staging the file
 * again would write nothing without this. Returns how many were moved.
 */
export async function setAsideLooseObjects(
  storeDir: string,
  gitDir: string,
  ids: readonly string[],
): Promise<number> {
  let aside: string | null = null;
  let moved = 0;
  for (const id of ids) {
    const file = join(gitDir, 'objects', id.slice(0, 2), id.slice(2));
    if ((await lstat(file).catch(() => null))?.isFile() !== true) continue;
    aside ??= asideDir(storeDir);
    const to = join(aside, 'objects', id.slice(0, 2), id.slice(2));
    await makeDirs(dirname(to));
    await rename(file, to);
    moved += 1;
  }
  return moved;
}

/** setAside, then a damaged index made again (rebuildIndex); returns what was done, in words. */
export async function recoverStore(
  repo: CheckpointRepo,
  location: StoreLocation,
  damage: RepoDamage,
): Promise<string> {
  const done = await setAside(location, damage);
  if (damage.unusable === null && damage.index !== null) await rebuildIndex(repo);
  return done;
}

/**
 * Makes the index again once a damaged one was set aside: it caches the latest checkpoint, so the
 * store goes on as if never damaged (the next capture stages only what changed since, and the
 * budget's bound of what it added stays small: budget-count.ts). With no latest marker, or one
 * that cannot be read, there is no index: the next capture stages every file, as a store's first does.
 */
export async function rebuildIndex(repo: CheckpointRepo): Promise<void> {
  const latest = await readRef(repo, LATEST_REF).catch(() => null);
  if (latest === null) return;
  // A half-written index is no better than a damaged one.
  await indexFromTree(repo, latest).catch(() => rm(repo.indexFile, { force: true }));
}

/** What a track says when its capture staged again the files whose objects the store had lost. */
export function restagedText(location: StoreLocation, paths: readonly string[]): string {
  const some = paths.slice(0, 3).join(', ') + (paths.length > 3 ? ', ...' : '');
  return `the checkpoint store ${location.dir} had lost the objects of ${paths.length} files its index named (${some}): they were staged again from the workspace; an older checkpoint that holds a lost object of a file changed since cannot be restored whole`;
}

/**
 * Rewrites packed-refs without its garbled lines and the broken refs' lines (with their peeled
 * lines), when it has any; the whole file as it was goes aside first.
 */
async function dropPacked(location: StoreLocation, damage: RepoDamage, aside: string): Promise<void> {
  const file = join(location.gitDir, 'packed-refs');
  const read = await readRegularFile(file).catch(() => null);
  if (read === null) return;
  if (!('bytes' in read)) {
    // A FIFO or device standing there holds no refs and is never read (git would wait on it): aside whole.
    const to = join(aside, relative(location.dir, file));
    await makeDirs(dirname(to));
    await rename(file, to);
    return;
  }
  const text = read.bytes.toString('utf8');
  const { refs, garbled } = parsePackedRefs(text);
  const broken = damage.brokenRefs.filter((ref) => refs.has(ref));
  if (garbled.length === 0 && broken.length === 0) return;
  const dropped = new Set([...garbled, ...broken.map((ref) => `${refs.get(ref) as string} ${ref}`)]);
  const kept: string[] = [];
  let dropping = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('^') && dropping) continue;
    dropping = dropped.has(line);
    if (!dropping) kept.push(line);
  }
  const to = join(aside, relative(location.dir, file));
  await makeDirs(dirname(to));
  await copyFile(file, to);
  await writeFileAtomic(file, kept.join('\n'));
}
