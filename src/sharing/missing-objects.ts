import { GitFailedError, ObjectMissingError } from '../errors.js';
import type { Repo } from '../git/repo.js';
import { deleteRefs, listRefs, reachesOnlyPresentObjects } from '../git/refs.js';
import { pushRefs, type PushedRef } from '../git/transport.js';
import type { RemoteTarget } from '../git/remote.js';
import { RECORDS_PREFIX } from './records.js';

/**
 * The refs among `refs` that reach an object this repository lost (an agent's reset and a gc): one
 * rev-list each, only once git has failed for them all (its pack fails for the whole push or bundle).
 */
async function brokenRefs(repo: Repo, refs: readonly string[]): Promise<string[]> {
  const ok = await Promise.all(refs.map((ref) => reachesOnlyPresentObjects(repo, [ref])));
  return refs.filter((_, i) => !ok[i]);
}

/**
 * A push whose pack failed here (`unpacker error`): the refs that reach a lost object are left out
 * (`broken`) and the healthy ones pushed again, so that they land. Nothing changes otherwise.
 */
export async function pushAroundMissing(
  repo: Repo,
  remote: RemoteTarget,
  results: PushedRef[],
): Promise<{ results: PushedRef[]; broken: string[] }> {
  const unpacked = results.filter((r) => r.flag === '!' && /unpacker error/.test(r.summary));
  const broken =
    unpacked.length === 0
      ? []
      : await brokenRefs(
          repo,
          unpacked.map((r) => r.ref),
        );
  if (broken.length === 0) return { results, broken };
  const healthy = unpacked.filter((r) => !broken.includes(r.ref));
  const again =
    healthy.length === 0
      ? []
      : await pushRefs(
          repo,
          remote,
          healthy.map((r) => `${r.ref}:${r.ref}`),
        );
  return { results: [...results.filter((r) => !unpacked.includes(r)), ...again], broken };
}

/**
 * Deletes the record refs among `broken` (compare-and-swap on their current value): a record whose
 * parent is lost makes every later gc, repack or clone of the repository fail, and the home makes
 * it again from its snapshot. Best effort: a ref another call changed meanwhile is that call's.
 */
export async function dropBrokenRecords(repo: Repo, broken: readonly string[]): Promise<void> {
  const held = await listRefs(repo, RECORDS_PREFIX);
  const refs = held.filter((r) => broken.includes(r.ref)).map((r) => ({ ref: r.ref, oldSha: r.sha }));
  await deleteRefs(repo, refs).catch((error: unknown) => {
    if (!(error instanceof GitFailedError)) throw error;
  });
}

/** OBJECT_MISSING for the refs that reach a commit this repository lost. */
export function objectMissing(
  broken: readonly string[],
  details: Record<string, unknown>,
  opts: { cause?: unknown } = {},
): ObjectMissingError {
  return new ObjectMissingError(
    `this repository lacks commits that ${broken.slice(0, 5).join(', ')}${broken.length > 5 ? ', ...' : ''} reach (an agent's reset and a gc remove them), so nothing of them was carried; "agentgate-snapshot verify --run ID" names what is gone`,
    { ...opts, details: { ...details, refs: [...broken] } },
  );
}

/** Runs `make` (a bundle of `refs`); a git failure caused by refs that reach a lost object is OBJECT_MISSING. */
export async function bundleOrMissing(
  repo: Repo,
  refs: readonly string[],
  make: () => Promise<void>,
): Promise<void> {
  try {
    await make();
  } catch (error) {
    if (!(error instanceof GitFailedError)) throw error;
    const broken = await brokenRefs(repo, refs);
    if (broken.length === 0) throw error;
    await dropBrokenRecords(repo, broken);
    throw objectMissing(broken, {}, { cause: error });
  }
}

/**
 * git's words when the source could not send the objects of what it was asked for: a damaged
 * remote (a lost object, a failed gc) says so through its upload-pack, and one that sends less than
 * the refs it names fails our connectivity check.
 */
const SOURCE_LACKS_OBJECTS =
  /possible repository corruption on the remote side|did not send all necessary objects|pack-objects died|remote: fatal: (unable to read|bad object|bad tree|missing)/i;

/** At most this many fetches again for one call: a source that fails whatever it is asked fails the call as it did. */
const MAX_FETCHES_AROUND = 64;

/**
 * One fetch of `specs`; when the source cannot send the objects of some of them (its pack fails
 * for the whole fetch), the refspecs are fetched again in halves, down to the ones that fail alone,
 * which are left out: they do not land, and the caller lists them in `refused` with the others git
 * did not bring (refuseUndelivered). A failing fetch lands nothing, so each ref is fetched once.
 * Negative refspecs go with every part; a wildcard one cannot be split, and fails as it did. Past
 * MAX_FETCHES_AROUND fetches, the first failure is thrown.
 */
export async function fetchAroundMissing(
  fetch: (specs: string[]) => Promise<void>,
  specs: readonly string[],
): Promise<void> {
  let budget = MAX_FETCHES_AROUND;
  let first: unknown = null;
  const attempt = async (part: readonly string[]): Promise<void> => {
    try {
      await fetch([...part]);
    } catch (error) {
      const negative = part.filter((s) => s.startsWith('^'));
      const positive = part.filter((s) => !s.startsWith('^'));
      first ??= error;
      if (
        !(error instanceof GitFailedError) ||
        !SOURCE_LACKS_OBJECTS.test(String(error.details.stderr ?? '')) ||
        positive.some((s) => s.includes('*'))
      )
        throw error;
      if (positive.length <= 1) return;
      budget -= 2;
      if (budget < 0) throw first;
      const half = Math.ceil(positive.length / 2);
      await attempt([...positive.slice(0, half), ...negative]);
      await attempt([...positive.slice(half), ...negative]);
    }
  };
  await attempt(specs);
}
