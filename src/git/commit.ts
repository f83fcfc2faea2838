import { lstat, readlink, realpath } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { GitFailedError, InvalidArgumentError } from '../errors.js';
import { encodeBytes, fsPath } from '../fs/path-bytes.js';
import { assertGitId, isFullId } from './ids.js';
import { getTree, readHead, updateRefs, type HeadInfo, type RefUpdate } from './refs.js';
import { isInside, type Repo } from './repo.js';
import { STAGING_CONFIG } from './hardening.js';
import { runGit, type GitOptions } from './runner.js';
import { GITLINK_MODE, LINK_MODE, type IndexEntry } from './parsers/ls-files-tagged.js';
import { objectId } from './record-objects.js';
import { readIndexEntries } from './index-entries.js';
import {
  listUncompared,
  movedGitlinks,
  submoduleChanges,
  submoduleCheckout,
  type HiddenUncompared,
} from './state.js';

export interface SnapshotCommitOptions {
  /**
   * Paths never staged (e.g. an artifacts directory inside the workspace). Relative paths are taken
   * from the workspace's top level; paths outside the workspace cannot be staged and are ignored.
   */
  excludes?: readonly string[];
  /**
   * The commit the caller believes HEAD is at (null: unborn). The snapshot is built on it and the ref
   * moves only if it is still there; otherwise CONCURRENT_UPDATE. Default: HEAD as read at the start.
   */
  expectedHead?: string | null;
  /** HEAD as the caller just read it (saves reading it again). */
  head?: HeadInfo;
  /** The index's entries (readIndexEntries) as the caller read them before anything was staged (saves reading them again). */
  index?: readonly IndexEntry[];
  /**
   * Further refs to point at the resulting commit, in the same transaction (an iteration ref), each
   * by compare-and-swap from `oldSha` (null: it must not exist yet; undefined: any value).
   * CONCURRENT_UPDATE otherwise. A function is given that commit (HEAD when nothing changed) and
   * names the refs (a WIP commit's ref is named by its id).
   */
  alsoPoint?: readonly AlsoPoint[] | ((sha: string) => readonly AlsoPoint[]);
  /** Called once a commit is to be made (the staged tree is new, or commitUnchanged said so), before it is: may throw to refuse. */
  beforeCommit?: () => Promise<void>;
  /**
   * Asked only when the staged tree is the parent's: true makes a commit all the same (a commit of
   * its own, with this message, on a parent that another snapshot made).
   */
  commitUnchanged?: (parent: string) => Promise<boolean>;
}

/** A ref that createSnapshotCommit points at its commit as well (see `alsoPoint`). */
export type AlsoPoint = Omit<RefUpdate, 'newSha'>;

export interface SnapshotCommit {
  /** The snapshot commit; HEAD itself when nothing changed. Always a full id. */
  sha: string;
  tree: string;
  /** The commit the snapshot was taken on (HEAD before the call), null on an unborn branch. */
  parent: string | null;
  /** The parent's tree, null on an unborn branch. */
  parentTree: string | null;
  created: boolean;
  /** The ref that was (or would have been) moved: the branch HEAD points to, or HEAD when detached. */
  ref: string;
  /** Paths git could not stage, left as they were in the index. */
  skipped: UnstageablePath[];
}

/**
 * Stages the whole work tree (`add -A`, honouring .gitignore and `excludes`), and if the tree
 * differs from HEAD's, commits it with plumbing: `write-tree`, `commit-tree` (no hooks, no signing,
 * no editor), then `update-ref` with the old value as compare-and-swap. On an unborn branch it
 * always makes the root commit. Every step's exit code is checked; a failure is thrown, never
 * papered over. The caller checks for unmerged paths or an operation in progress first.
 * Throws CONCURRENT_UPDATE if the ref moved meanwhile.
 */
export async function createSnapshotCommit(
  repo: Repo,
  message: string,
  opts: SnapshotCommitOptions = {},
): Promise<SnapshotCommit> {
  const head = opts.head ?? (await readHead(repo));
  const ref = head.ref ?? 'HEAD';
  const parent = opts.expectedHead === undefined ? head.sha : opts.expectedHead;
  const excludes = await excludePathspecs(repo.topLevel, opts.excludes ?? []);
  // The parent's tree is looked up while add scans the work tree.
  const staging = stageAll(repo, excludes);
  const [staged, parentTree, hidden] = await Promise.all([
    staging,
    parent === null ? null : getTree(repo, parent),
    hiddenChanges(repo, staging, opts.index),
  ]);
  const skipped = [...staged, ...hidden];
  const tree = assertGitId((await runGit(repo, ['write-tree'])).stdout.trim(), 'write-tree');
  const also = (sha: string): RefUpdate[] => {
    const refs = typeof opts.alsoPoint === 'function' ? opts.alsoPoint(sha) : (opts.alsoPoint ?? []);
    return refs.map((r) => ({ ...r, newSha: sha }));
  };
  if (parent !== null && parentTree === tree && (await opts.commitUnchanged?.(parent)) !== true) {
    await updateRefs(repo, also(parent), { message: 'agentgate: keep snapshot reachable' });
    return { sha: parent, tree, parent, parentTree, created: false, ref, skipped };
  }
  await opts.beforeCommit?.();
  const sha = await commitTree(repo, tree, parent === null ? [] : [parent], message);
  const subject = message.split('\n', 1)[0] ?? '';
  // The branch moves by compare-and-swap, together with the refs that keep the commit reachable.
  await updateRefs(repo, [{ ref, newSha: sha, oldSha: parent }, ...also(sha)], {
    message: `agentgate snapshot: ${subject}`.slice(0, 200),
    noDeref: head.ref === null,
  });
  return { sha, tree, parent, parentTree, created: true, ref, skipped };
}

/**
 * Commits the index as it stands (`write-tree`, `commit-tree`) on HEAD and moves HEAD's branch by
 * compare-and-swap: what the user staged is kept as a commit of its own before the work tree is
 * staged over it. Returns HEAD as it now is.
 */
export async function commitIndex(repo: Repo, message: string): Promise<HeadInfo & { sha: string }> {
  const [head, written] = await Promise.all([readHead(repo), runGit(repo, ['write-tree'])]);
  const tree = assertGitId(written.stdout.trim(), 'write-tree');
  const sha = await commitTree(repo, tree, head.sha === null ? [] : [head.sha], message);
  const subject = message.split('\n', 1)[0] ?? '';
  await updateRefs(repo, [{ ref: head.ref ?? 'HEAD', newSha: sha, oldSha: head.sha }], {
    message: `agentgate snapshot: ${subject}`.slice(0, 200),
    noDeref: head.ref === null,
  });
  return { ref: head.ref, sha };
}

/** A path `add -A` cannot stage, left as the index had it. */
export interface UnstageablePath {
  path: string;
  /**
   * `special-file`: a FIFO, socket or device where a file was; `unreadable`: no permission to read
   * it; `not-compared`: marked assume-unchanged or skip-worktree, and not what the index holds (add
   * does not look at it: the change is not in the commit); `nested-repository`: a repository in the
   * workspace with no commit checked out (`git init` in a subdirectory), which git cannot record;
   * `submodule-not-checked-out`: a submodule's directory with no `.git` that holds something all
   * the same (add passes it over: nothing there is in the commit); `submodule-modified`: a
   * submodule checked out with work not committed inside it (only its commit is recorded);
   * `invalid-path`: a name git refuses to record (`.GIT`, `git~1`, `.git.`: `.git` on another
   * filesystem; a linked `.gitmodules`).
   */
  reason:
    | 'special-file'
    | 'unreadable'
    | 'not-compared'
    | 'nested-repository'
    | 'submodule-not-checked-out'
    | 'submodule-modified'
    | 'invalid-path';
}

/**
 * Tracked files git does not compare with the work tree (assume-unchanged, skip-worktree) whose
 * content is not the index's, or that are gone (a sparse checkout's files left out excepted): add
 * leaves them out, so the snapshot says so instead of passing their change over in silence. The
 * marks are the user's: they are left as they are. One `ls-files`, and a `hash-object` only when
 * there are such files. A link counts by its target, as git stores it; a file turned link, a link
 * turned file, or a directory in a file's place, by that alone. A submodule's commit is taken
 * by add, unless its gitlink is marked too (movedGitlinks); a submodule whose content add does not
 * take is named (submoduleSkips).
 */
export async function hiddenChanges(
  repo: Repo,
  /** The `add` in progress; null: nothing is staged (`before` on a clean workspace). */
  staging: Promise<unknown> | null,
  read?: readonly IndexEntry[],
): Promise<UnstageablePath[]> {
  const index = read ?? (await readIndexEntries(repo, 'marked'));
  const [marked, unchecked] = await Promise.all([listUncompared(repo, index), submoduleSkips(repo, index)]);
  const moved = await movedGitlinks(repo, marked);
  let hidden = marked.filter((e) => e.mode !== GITLINK_MODE);
  // A directory in a marked file's place: add takes what it holds and drops the entry, unless it
  // holds nothing to take. Which one, the index tells once add is done.
  if (staging !== null && hidden.some((e) => e.onDisk === 'other')) {
    await staging;
    hidden = (await listUncompared(repo)).filter((e) => e.mode !== GITLINK_MODE);
  }
  if (hidden.length === 0 && moved.length === 0) return unchecked;
  const [files, links] = await Promise.all([sameFiles(repo, hidden), sameLinks(repo, hidden)]);
  const changed = new Set(
    [...hidden.filter((e) => !files.has(e) && !links.has(e)), ...moved].map((e) => e.path),
  );
  // In the index's order, the moved submodules among the files.
  const named = marked.filter((e) => changed.has(e.path));
  return [...named.map((e) => ({ path: e.path, reason: 'not-compared' as const })), ...unchecked];
}

/**
 * The submodules whose content add does not take: one not checked out whose directory holds
 * something all the same, and one checked out with work not committed inside it (a changed or
 * untracked file, a marked path hiding a change): only a submodule's commit is recorded.
 */
async function submoduleSkips(repo: Repo, index: readonly IndexEntry[]): Promise<UnstageablePath[]> {
  const gitlinks = index.filter((e) => e.mode === GITLINK_MODE);
  if (gitlinks.length === 0) return [];
  const found = await Promise.all(gitlinks.map((e) => submoduleCheckout(join(repo.topLevel, e.path))));
  const checkedOut = gitlinks.filter((_, i) => found[i] === 'checked-out');
  const inside = checkedOut.length === 0 ? null : await submoduleChanges(repo, 'normal', checkedOut);
  const under = (sub: string) => (e: { path: string }) => e.path === sub || e.path.startsWith(`${sub}/`);
  const modified = checkedOut.filter(
    (e) => inside !== null && (inside.changes.some(under(e.path)) || inside.uncompared.some(under(e.path))),
  );
  return [
    ...gitlinks
      .filter((_, i) => found[i] === 'filled')
      .map((e) => ({ path: e.path, reason: 'submodule-not-checked-out' as const })),
    ...modified.map((e) => ({ path: e.path, reason: 'submodule-modified' as const })),
  ];
}

/** The regular files, tracked as such, whose content is the index's blob. */
async function sameFiles(repo: Repo, present: readonly HiddenUncompared[]): Promise<Set<HiddenUncompared>> {
  // A name with a line break cannot be asked on that stdin: it counts as changed.
  const plain = present.filter((e) => e.onDisk === 'file' && e.mode !== LINK_MODE && !e.path.includes('\n'));
  if (plain.length === 0) return new Set();
  const res = await runGit(repo, ['hash-object', '--stdin-paths'], {
    input: encodeBytes(plain.map((e) => `${e.path}\n`).join('')),
  });
  const ids = res.stdout.split('\n');
  return new Set(plain.filter((e, i) => ids[i] === e.oid));
}

/** The links, tracked as links, whose target is the index's (a link's blob is its target). */
async function sameLinks(repo: Repo, present: readonly HiddenUncompared[]): Promise<Set<HiddenUncompared>> {
  const links = present.filter((e) => e.onDisk === 'symlink' && e.mode === LINK_MODE);
  const same = await Promise.all(
    links.map(async (e) => {
      const target = await readlink(fsPath(join(repo.topLevel, e.path)), { encoding: 'buffer' }).catch(
        () => null,
      );
      const format = e.oid.length === 64 ? 'sha256' : 'sha1';
      return target !== null && objectId(format, 'blob', target) === e.oid;
    }),
  );
  return new Set(links.filter((_, i) => same[i]));
}

/**
 * What git says of a path it cannot stage (`error: <head><path><tail>`, the path printed raw, so it
 * may hold a line break), and what must lie at that path for the complaint to be about it.
 */
const UNSTAGEABLE: ReadonlyArray<{ head: string; tail: string; reason: UnstageablePath['reason'] }> = [
  {
    head: '',
    tail: ': can only add regular files, symbolic links or git-directories',
    reason: 'special-file',
  },
  { head: 'open("', tail: '"): Permission denied', reason: 'unreadable' },
  { head: "'", tail: "/' does not have a commit checked out", reason: 'nested-repository' },
  { head: "invalid path '", tail: "'", reason: 'invalid-path' },
];

/**
 * What to leave out of a path git refuses to record: up to its first component that would be `.git`
 * on a case-insensitive or Windows filesystem (git's core.protectNTFS, on by default), so that one
 * exclusion covers a whole directory of such files (git names one per attempt); else the path.
 */
function refusedPart(path: string): string {
  const parts = path.split('/');
  const at = parts.findIndex((c) => /^(\.git[ .]*(::\$index_allocation)?|git~\d+)$/i.test(c));
  return at < 0 ? path : parts.slice(0, at + 1).join('/');
}

/**
 * `add -A --sparse` (a new file outside a sparse checkout's cone is the agent's work too). A path
 * git cannot stage (a FIFO or socket where a tracked file was, a file we may not read, a nested
 * repository with no commit) would fail the whole capture: it is left out, as the index had it,
 * and reported; the rest is staged. The pathspecs go in on stdin as bytes, so that a name that is
 * not UTF-8 (read back from git's message) is left out as itself.
 */
async function stageAll(repo: Repo, excludes: readonly string[]): Promise<UnstageablePath[]> {
  const skipped: UnstageablePath[] = [];
  for (;;) {
    const specs = [':(top)', ...excludes, ...skipped.map((s) => `:(exclude,top,literal)${s.path}`)];
    try {
      await runGit(
        repo,
        [...STAGING_CONFIG, 'add', '-A', '--sparse', '--pathspec-from-file=-', '--pathspec-file-nul'],
        { input: encodeBytes(specs.map((p) => `${p}\0`).join('')) },
      );
      return skipped;
    } catch (error) {
      const stderr = error instanceof GitFailedError ? String(error.details.stderr ?? '') : '';
      // git 2.39 names an ignored directory that an exclude names (our home inside the workspace,
      // ignored by the user's .gitignore) as "ignored" and fails, having staged all the rest.
      if (onlyExcludedIgnored(stderr, specs)) return skipped;
      const found = await unstageableIn(repo, stderr);
      const fresh = found.filter((f) => !skipped.some((s) => s.path === f.path));
      if (fresh.length === 0) throw error;
      skipped.push(...fresh);
    }
  }
}

const IGNORED_HEADER = 'The following paths are ignored by one of your .gitignore files:\n';

/**
 * Whether git's complaint is only that paths our exclude pathspecs name are ignored: nothing but
 * that list and its hints, every path in it one we exclude. Then the rest is staged and written.
 */
function onlyExcludedIgnored(stderr: string, specs: readonly string[]): boolean {
  const at = stderr.indexOf(IGNORED_HEADER);
  if (at === -1 || /^(error|fatal): /m.test(stderr)) return false;
  const excluded = new Set(
    specs.filter((s) => s.startsWith(':(exclude,')).map((s) => s.slice(s.indexOf(')') + 1)),
  );
  const listed = stderr
    .slice(at + IGNORED_HEADER.length)
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('hint: '));
  return listed.length > 0 && listed.every((path) => excluded.has(path));
}

/**
 * The paths git's stderr says it cannot stage. git prints a name raw: one with a line break spans
 * lines, and one could even hold the message's own words. So every reading of each message is a
 * candidate, and one counts only when the work tree bears it out (a FIFO or the like at that path,
 * a `.git` in that directory, anything there at all for a file we may not read).
 */
async function unstageableIn(repo: Repo, stderr: string): Promise<UnstageablePath[]> {
  const found: UnstageablePath[] = [];
  for (const { head, tail, reason } of UNSTAGEABLE) {
    for (const named of messagePaths(stderr, `error: ${head}`, tail)) {
      const path = reason === 'invalid-path' ? refusedPart(named) : named;
      const at = join(repo.topLevel, path, reason === 'nested-repository' ? '.git' : '');
      const info = await lstat(fsPath(at)).catch(() => null);
      const borne =
        reason !== 'special-file' ||
        (info !== null && !info.isFile() && !info.isDirectory() && !info.isSymbolicLink());
      if (info !== null && borne && !found.some((f) => f.path === path)) found.push({ path, reason });
    }
  }
  return found;
}

/** Every `x` for which `<head>x<tail>` stands in `text` from a line's start to a line's end. */
function messagePaths(text: string, head: string, tail: string): string[] {
  const out: string[] = [];
  for (let i = text.indexOf(head); i !== -1; i = text.indexOf(head, i + 1)) {
    if (i > 0 && text[i - 1] !== '\n') continue;
    const from = i + head.length;
    for (let j = text.indexOf(tail, from); j !== -1; j = text.indexOf(tail, j + 1)) {
      const end = j + tail.length;
      if (j > from && (end === text.length || text[end] === '\n')) out.push(text.slice(from, j));
    }
  }
  return out;
}

/**
 * Writes a commit object for `tree` with these parents (none: a root commit) and returns its id.
 * Plumbing only: no hooks, no signing, no editor, and no ref moves. The message goes in on stdin,
 * ending with a newline as git's own commits do.
 */
export async function commitTree(
  repo: GitOptions,
  tree: string,
  parents: readonly string[],
  message: string,
): Promise<string> {
  for (const id of [tree, ...parents]) {
    if (!isFullId(id))
      throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, { details: { id } });
  }
  const text = message.endsWith('\n') ? message : `${message}\n`;
  const args = ['commit-tree', '--no-gpg-sign', ...parents.flatMap((p) => ['-p', p]), tree];
  return assertGitId((await runGit(repo, args, { input: text })).stdout.trim(), 'commit-tree');
}

/**
 * Turns workspace paths into literal, top-anchored exclude pathspecs. A path is matched both as
 * given and through its real path, so a symlinked temp dir cannot slip an artifacts dir back in.
 */
async function excludePathspecs(topLevel: string, excludes: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of excludes) {
    const abs = resolve(topLevel, path);
    const real = await realpath(abs).catch(() => abs);
    const inside = [abs, real].find((p) => isInside(topLevel, p));
    if (inside === undefined) continue;
    const rel = relative(topLevel, inside).split(sep).join('/');
    if (rel === '')
      throw new InvalidArgumentError(`exclude ${path} is the whole workspace; nothing would be snapshotted`, {
        details: { exclude: path },
      });
    out.push(`:(exclude,top,literal)${rel}`);
  }
  return out;
}
