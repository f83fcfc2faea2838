import {
  AmbiguousIdError,
  ConcurrentUpdateError,
  GitFailedError,
  InvalidArgumentError,
  RevisionNotFoundError,
  StoreCorruptError,
} from '../errors.js';
import { assertGitId, isFullId } from './ids.js';
import { parseRefRecords, REF_RECORD_FORMAT, type RefRecord } from './parsers/for-each-ref.js';
import { runGit, runGitBuffer, type GitOptions } from './runner.js';
import { decodeBytes, encodeBytes } from '../fs/path-bytes.js';

/** Rejects revision strings that could be read as options or break line-based git input. */
export function assertRevisionSyntax(rev: string): void {
  if (rev === '' || rev.startsWith('-') || /[\0\n\r]/.test(rev)) {
    throw new InvalidArgumentError(`${JSON.stringify(rev)} is not a usable revision name`, {
      details: { rev },
    });
  }
}

/** The all-zero id git uses for "must not exist" in compare-and-swap, sized like `like`. */
function zeroId(like: string): string {
  return '0'.repeat(like.length);
}

function assertRefName(ref: string): void {
  if (ref !== 'HEAD' && !/^refs\/[^\0\n\r ]+$/.test(ref)) {
    throw new InvalidArgumentError(`${JSON.stringify(ref)} is not a full ref name (HEAD or refs/...)`, {
      details: { ref },
    });
  }
}

export type PeelTo = 'commit' | 'tree' | 'none';

/**
 * Resolves any revision (full or abbreviated id, branch, tag, `HEAD~2`, ...) to a full object id,
 * peeled to a commit by default. One `cat-file --batch-check` process answers both "what is it"
 * and, when that fails, "was the short id ambiguous". Throws REVISION_NOT_FOUND or AMBIGUOUS_ID.
 */
export async function resolveRevision(
  repo: GitOptions,
  rev: string,
  peel: PeelTo = 'commit',
): Promise<string> {
  assertRevisionSyntax(rev);
  const wanted = peel === 'none' ? rev : `${rev}^{${peel}}`;
  const stdout = await batchCheckText(repo, `${wanted}\n${rev}\n`, rev, peel);
  const [peeled = '', plain = ''] = stdout.split('\n');
  const hit = /^([0-9a-f]+) ([a-z]+) \d+$/.exec(peeled);
  if (hit) return assertGitId(hit[1] as string, 'cat-file --batch-check');
  // `:/text` reads the whole rest as its text, `^{commit}` included: peel what it names instead.
  const named = /^([0-9a-f]+) ([a-z]+) \d+$/.exec(plain);
  if (named && peel !== 'none' && rev.startsWith(':/'))
    return resolveRevision(repo, named[1] as string, peel);
  if (plain === `${rev} ambiguous`) {
    const candidates = (await runGit(repo, ['rev-parse', `--disambiguate=${rev}`])).stdout
      .split('\n')
      .filter(Boolean);
    throw new AmbiguousIdError(
      `${rev} matches ${candidates.length} objects; give more characters of the id`,
      { details: { rev, candidates } },
    );
  }
  const other = /^[0-9a-f]+ ([a-z]+) \d+$/.exec(plain);
  const why = other ? `it is a ${other[1]}, not a ${peel}` : 'no such revision';
  throw new RevisionNotFoundError(`revision ${rev} not found in this repository (${why})`, {
    details: { rev, peel, ...(other ? { type: other[1] } : {}) },
  });
}

/** cat-file's answers; a revision git cannot even look up (`HEAD@{u}` with no upstream) is REVISION_NOT_FOUND. */
async function batchCheckText(repo: GitOptions, input: string, rev: string, peel: PeelTo): Promise<string> {
  try {
    return (await runGit(repo, ['cat-file', '--batch-check'], { input })).stdout;
  } catch (cause) {
    if (!(cause instanceof GitFailedError)) throw cause;
    const why = String(cause.details.stderr ?? '').split('\n')[0] ?? '';
    throw new RevisionNotFoundError(
      `revision ${rev} not found in this repository (${why.replace(/^fatal: /, '')})`,
      {
        cause,
        details: { rev, peel },
      },
    );
  }
}

/** The tree of a revision (full id). Throws REVISION_NOT_FOUND. */
export async function getTree(repo: GitOptions, rev: string): Promise<string> {
  return resolveRevision(repo, rev, 'tree');
}

/** True if commit `a` is an ancestor of (or equal to) commit `b`. */
export async function isAncestor(repo: GitOptions, a: string, b: string): Promise<boolean> {
  assertRevisionSyntax(a);
  assertRevisionSyntax(b);
  const { exitCode } = await runGit(repo, ['merge-base', '--is-ancestor', a, b], { okExitCodes: [1] });
  return exitCode === 0;
}

/** True if the object with this full id is in the repository's object store. */
export async function objectExists(repo: GitOptions, id: string): Promise<boolean> {
  if (!isFullId(id))
    throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, { details: { id } });
  const { exitCode } = await runGit(repo, ['cat-file', '-e', id], { okExitCodes: [1] });
  return exitCode === 0;
}

/**
 * True when everything the refs (full names) reach is in the repository: `rev-list --objects`
 * walks all of it, so this is for a failure's diagnosis, not for every call.
 */
export async function reachesOnlyPresentObjects(repo: GitOptions, refs: readonly string[]): Promise<boolean> {
  for (const ref of refs) assertRevisionSyntax(ref);
  const { exitCode } = await runGit(repo, ['rev-list', '--objects', '--quiet', ...refs, '--'], {
    okExitCodes: [128],
  });
  return exitCode === 0;
}

/** Where HEAD points: the full ref name (null when detached) and the commit (null on an unborn branch). */
export interface HeadInfo {
  ref: string | null;
  sha: string | null;
}

/**
 * Reads HEAD without touching anything. A ref name that is not UTF-8 keeps its bytes (escaped as
 * `decodeBytes` does), so that it is never mistaken for another ref.
 */
export async function readHead(repo: GitOptions): Promise<HeadInfo> {
  const [symbolic, resolved] = await Promise.all([
    runGitBuffer(repo, ['symbolic-ref', '-q', 'HEAD'], { okExitCodes: [1] }),
    runGit(repo, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { okExitCodes: [1] }),
  ]);
  return {
    ref: symbolic.exitCode === 0 ? decodeBytes(symbolic.stdout).trim() : null,
    sha: resolved.exitCode === 0 ? assertGitId(resolved.stdout.trim(), 'rev-parse HEAD') : null,
  };
}

/** The current id of a full ref name, or null if it does not exist (no peeling, no abbreviation). */
export async function readRef(repo: GitOptions, ref: string): Promise<string | null> {
  assertRefName(ref);
  const { stdout, exitCode } = await runGit(repo, ['rev-parse', '-q', '--verify', '--end-of-options', ref], {
    okExitCodes: [1],
  });
  return exitCode === 0 ? assertGitId(stdout.trim(), 'rev-parse') : null;
}

export interface UpdateRefOptions {
  /** Reflog message. */
  message?: string;
  /** Update HEAD itself rather than the branch it points to (a detached HEAD). */
  noDeref?: boolean;
  /** Set the ref whatever its current value (no compare-and-swap); `oldSha` is then ignored. */
  force?: boolean;
}

/**
 * Moves `ref` to `newSha` only if it is still at `oldSha` (null: only if it does not exist yet), or
 * unconditionally with `force`. Throws CONCURRENT_UPDATE when someone else moved it; any other
 * failure stays GIT_FAILED.
 */
export async function updateRef(
  repo: GitOptions,
  ref: string,
  newSha: string,
  oldSha: string | null,
  opts: UpdateRefOptions = {},
): Promise<void> {
  assertRefName(ref);
  for (const id of [newSha, oldSha ?? newSha]) {
    if (!isFullId(id))
      throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, {
        details: { ref, id },
      });
  }
  const expected = opts.force ? [] : [oldSha ?? zeroId(newSha)];
  const args = [
    'update-ref',
    '-m',
    opts.message ?? 'agentgate: update ref',
    ...(opts.noDeref || isOwnRef(ref) ? ['--no-deref'] : []),
    ref,
    newSha,
    ...expected,
  ];
  await withCompareAndSwap(repo, ref, oldSha, () => runGit(repo, args), opts.force === true);
}

export interface RefUpdate {
  ref: string;
  newSha: string;
  /** The value the ref must still have (null: must not exist yet); undefined: any value. */
  oldSha?: string | null;
}

/**
 * Moves several refs in one transaction (`update-ref --stdin -z`): all of them move or none does.
 * Throws CONCURRENT_UPDATE when a compare-and-swap fails; any other failure stays GIT_FAILED.
 */
export async function updateRefs(
  repo: GitOptions,
  updates: readonly RefUpdate[],
  opts: Pick<UpdateRefOptions, 'message' | 'noDeref'> = {},
): Promise<void> {
  if (updates.length === 0) return;
  const records: string[] = [];
  for (const u of updates) {
    assertRefName(u.ref);
    for (const id of [u.newSha, u.oldSha ?? u.newSha]) {
      if (!isFullId(id))
        throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, {
          details: { ref: u.ref, id },
        });
    }
    const old = u.oldSha === undefined ? '' : (u.oldSha ?? zeroId(u.newSha));
    records.push(...noDeref(u.ref), `update ${u.ref}`, u.newSha, old);
  }
  const args = [
    'update-ref',
    '-m',
    opts.message ?? 'agentgate: update refs',
    ...(opts.noDeref ? ['--no-deref'] : []),
    '--stdin',
    '-z',
  ];
  const guarded = updates.find((u) => u.oldSha !== undefined);
  // As bytes: a ref name read back from git that is not UTF-8 (escaped) must name that very ref.
  const run = () => runGit(repo, args, { input: encodeBytes(`${records.join('\0')}\0`) });
  await withCompareAndSwap(
    repo,
    guarded?.ref ?? updates[0]!.ref,
    guarded?.oldSha ?? null,
    run,
    guarded === undefined,
  );
}

/**
 * Our own refs are never symbolic: one planted there (`refs/agentgate/...` -> `refs/heads/main`) is
 * written or deleted itself, never the branch it names.
 */
function isOwnRef(ref: string): boolean {
  return ref.startsWith('refs/agentgate/');
}

/** `update-ref --stdin`'s option for the next command, for our own refs (isOwnRef). */
function noDeref(ref: string): string[] {
  return isOwnRef(ref) ? ['option no-deref'] : [];
}

/** Deletes `ref` itself (a symbolic ref too, not its target), only if it is still at `oldSha` when one is given. Throws CONCURRENT_UPDATE. */
export async function deleteRef(repo: GitOptions, ref: string, oldSha?: string): Promise<void> {
  assertRefName(ref);
  if (oldSha !== undefined && !isFullId(oldSha))
    throw new InvalidArgumentError(`${JSON.stringify(oldSha)} is not a full object id`, {
      details: { ref, id: oldSha },
    });
  // --no-deref: a symbolic ref planted here (`refs/agentgate/...` -> `refs/heads/main`) goes, never the branch it names.
  const args = [
    'update-ref',
    '-m',
    'agentgate: delete ref',
    '--no-deref',
    '-d',
    ref,
    ...(oldSha === undefined ? [] : [oldSha]),
  ];
  await withCompareAndSwap(repo, ref, oldSha ?? null, () => runGit(repo, args), oldSha === undefined);
}

/** Runs a ref update; when it fails, tells a lost compare-and-swap apart from any other failure. */
async function withCompareAndSwap(
  repo: GitOptions,
  ref: string,
  expected: string | null,
  update: () => Promise<unknown>,
  anyValue = false,
): Promise<void> {
  try {
    await update();
  } catch (cause) {
    if (!(cause instanceof GitFailedError) || anyValue) throw cause;
    const actual = await readRef(repo, ref);
    if (actual === expected) throw cause;
    throw new ConcurrentUpdateError(
      `${ref} moved to ${actual ?? '(deleted)'} while we expected ${expected ?? '(absent)'}; another process updated it, retry`,
      {
        cause,
        details: { ref, expected, actual },
      },
    );
  }
}

export interface RefEntry {
  ref: string;
  sha: string;
}

/** Every ref under `prefix` (e.g. `refs/agentgate/`), sorted by name. One process. */
export async function listRefs(repo: GitOptions, prefix: string): Promise<RefEntry[]> {
  assertRefName(prefix);
  // Ref names cannot contain spaces or newlines, so this plain format is unambiguous.
  const { stdout } = await runGit(repo, ['for-each-ref', '--format=%(objectname) %(refname)', prefix]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(' ');
      return { sha: assertGitId(line.slice(0, space), 'for-each-ref'), ref: line.slice(space + 1) };
    });
}

/** Deletes several refs in one transaction (`update-ref --stdin -z`), each only if it is still at the given id. */
export async function deleteRefs(
  repo: GitOptions,
  refs: ReadonlyArray<{ ref: string; oldSha: string }>,
): Promise<void> {
  if (refs.length === 0) return;
  const records: string[] = [];
  for (const r of refs) {
    assertRefName(r.ref);
    if (!isFullId(r.oldSha))
      throw new InvalidArgumentError(`${JSON.stringify(r.oldSha)} is not a full object id`, {
        details: { ref: r.ref, id: r.oldSha },
      });
    records.push(...noDeref(r.ref), `delete ${r.ref}`, r.oldSha);
  }
  await runGit(repo, ['update-ref', '-m', 'agentgate: delete refs', '--stdin', '-z'], {
    input: `${records.join('\0')}\0`,
  });
}

/** git's warnings (LC_ALL=C) for a loose ref it skips when listing: garbage or nothing in it, or a name it refuses. */
const SKIPPED_REF = /^warning: ignoring (?:broken ref|ref with broken name) (refs\/.+)$/gm;

/**
 * Every ref under the given prefixes with its commit, tree, date and message body, newest ref name
 * first. A ref naming an object that is no commit (a blob or a tree: for-each-ref gives it no tree
 * and no date), or a loose one git skips with a warning (empty or garbled, as a power loss leaves
 * it, or named as git refuses: listed as absent while `gc` fails on it for ever), is STORE_CORRUPT,
 * `details.notCommits` naming those refs, so that the checkpoint store can set them aside
 * (checkpoints/recovery.ts damageBehind) rather than read a date of nothing.
 */
export async function listRefRecords(repo: GitOptions, prefixes: readonly string[]): Promise<RefRecord[]> {
  for (const p of prefixes) assertRefName(p);
  let skipped: string[] = [];
  const onStderr = (text: string) => (skipped = [...text.matchAll(SKIPPED_REF)].map((m) => m[1] as string));
  const args = ['for-each-ref', '--sort=-refname', `--format=${REF_RECORD_FORMAT}`, ...prefixes];
  const records = parseRefRecords((await runGit(repo, args, { onStderr })).stdout);
  const notCommits = [...records.filter((r) => r.tree === '').map((r) => r.ref), ...new Set(skipped)];
  if (notCommits.length > 0)
    throw new StoreCorruptError(
      `${notCommits.join(', ')} name${notCommits.length > 1 ? '' : 's'} no commit`,
      {
        details: { notCommits },
      },
    );
  return records;
}
