import { lstat, mkdir, rename } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { StoreCorruptError } from '../errors.js';
import { randomHex } from '../fs/random.js';
import { repoDamage, type RepoDamage } from '../git/checkpoint-health.js';
import { BASELINE_REF, LATEST_REF, SAFETY_REF } from './message.js';
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
  return damage.unusable === null && damage.brokenRefs.length === 0 ? null : damage;
}

function what(damage: RepoDamage): string {
  return damage.unusable ?? `its marker ${damage.brokenRefs.map(markerName).join(', ')} holds no checkpoint`;
}

function markerName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
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
