import { copyFile, lstat, mkdir, readFile, rename } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { AgentgateError, StoreCorruptError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { randomHex } from '../fs/random.js';
import { parsePackedRefs, refsWithoutObject, repoDamage, type RepoDamage } from '../git/checkpoint-health.js';
import type { GitOptions } from '../git/runner.js';
import { BASELINE_REF, CHECKPOINT_REF_PREFIX, LATEST_REF, META_REF_PREFIX, SAFETY_REF } from './message.js';
import type { StoreLocation } from './project-id.js';

/**
 * A damaged checkpoint store (its git dir gone or garbled, a marker ref holding garbage) made every
 * command fail with git's own error for ever. Every command now finds the damage first, from the
 * store's files alone (checkpoint-health.ts). `track` (and so every agent hook) moves the damaged
 * part aside, into `<store>/damaged-<time>/` where nothing is deleted, and goes on: with the same
 * checkpoints when only markers were broken (the track sets `latest`, and `baseline` when it was
 * one of them), with a new empty store when git could no longer open it. Every other command
 * fails with STORE_CORRUPT saying so.
 */

const MARKERS = [LATEST_REF, BASELINE_REF, SAFETY_REF];

/** What is damaged in the store at `location`; null when nothing is. */
export async function findDamage(location: StoreLocation): Promise<RepoDamage | null> {
  const damage = await repoDamage(location.gitDir, MARKERS);
  return isDamage(damage) ? damage : null;
}

function isDamage(damage: RepoDamage): boolean {
  return damage.unusable !== null || damage.brokenRefs.length > 0 || damage.garbledPacked.length > 0;
}

/** git's words for a ref it cannot follow or a packed-refs it cannot read (LC_ALL=C). */
const REF_FAILURE =
  /missing object|does not point to a valid object|bad object|unexpected line in .*packed-refs|broken ref|unable to read|corrupt/i;

/**
 * The damage behind a failed git call, when a damaged ref explains it: a ref of ours naming an
 * object that is gone (asked of git only now), or what the files show. Null when the failure is
 * not of that kind, or nothing is damaged: the caller throws the failure itself.
 */
export async function damageBehind(
  repo: GitOptions,
  location: StoreLocation,
  error: unknown,
): Promise<RepoDamage | null> {
  if (!(error instanceof AgentgateError) || error.code !== 'GIT_FAILED') return null;
  if (!REF_FAILURE.test(`${error.message}\n${String(error.details.stderr ?? '')}`)) return null;
  const found = await findDamage(location);
  if (found !== null) return found;
  const missing = await refsWithoutObject(repo, location.gitDir, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
  return missing.length === 0 ? null : { unusable: null, brokenRefs: missing, garbledPacked: [] };
}

function what(damage: RepoDamage): string {
  if (damage.unusable !== null) return damage.unusable;
  const parts = [];
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
    damage.unusable === null
      ? 'goes on with its checkpoints'
      : 'starts a new, empty store (the checkpoints in it can no longer be read)';
  return new StoreCorruptError(
    `the checkpoint store ${location.dir} is damaged: ${what(damage)}; "checkpoint track" (as the next agent hook does) moves the damaged part aside into ${join(location.dir, 'damaged-<time>')} and ${after}`,
    { details: { store: location.dir, damage: what(damage) } },
  );
}

/**
 * Moves the damaged part aside (the caller holds the lock): the broken marker refs, or, when git
 * cannot open the repository, the git dir with the index and the counts that described it (a
 * stale index would name objects that are gone). Returns what was done, in words.
 */
export async function setAside(location: StoreLocation, damage: RepoDamage): Promise<string> {
  const parts =
    damage.unusable === null
      ? damage.brokenRefs.map((ref) => join(location.gitDir, ...ref.split('/')))
      : [location.gitDir, location.indexFile, join(location.dir, 'budget.json'), location.upkeepFile];
  const aside = join(
    location.dir,
    `damaged-${new Date().toISOString().replace(/[-:.]/g, '')}-${randomHex(3)}`,
  );
  if (damage.unusable === null) await dropPacked(location, damage, aside);
  for (const part of parts) {
    if ((await lstat(part).catch(() => null)) === null) continue;
    const to = join(aside, relative(location.dir, part));
    await mkdir(dirname(to), { recursive: true });
    await rename(part, to);
  }
  const next =
    damage.unusable === null
      ? 'its checkpoints are kept'
      : 'a new store was started (the checkpoints of the old one could not be read)';
  return `the checkpoint store ${location.dir} was damaged (${what(damage)}): the damaged part was moved to ${aside} and ${next}`;
}

/**
 * Rewrites packed-refs without its garbled lines and the broken refs' lines (with their peeled
 * lines), when it has any; the whole file as it was goes aside first.
 */
async function dropPacked(location: StoreLocation, damage: RepoDamage, aside: string): Promise<void> {
  const file = join(location.gitDir, 'packed-refs');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return;
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
  await mkdir(dirname(to), { recursive: true });
  await copyFile(file, to);
  await writeFileAtomic(file, kept.join('\n'));
}
