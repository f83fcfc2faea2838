import { leadingDirsAreReal } from '../fs/leading-dirs.js';
import { decodeBytes, encodeBytes } from '../fs/path-bytes.js';
import type { CheckpointRepo } from './checkpoint-repo.js';
import { STAGING_CONFIG } from './hardening.js';
import { assertGitId } from './ids.js';
import { GITLINK_MODE, parseCandidateListing, type CandidateListing } from './parsers/ls-files-tagged.js';
import { batchCheck } from './record-objects.js';
import { splitNul } from './parsers/nul-records.js';
import { readIndexEntries } from './index-entries.js';
import { runGit, runGitBuffer } from './runner.js';

/**
 * The checkpoint repository's index: what a capture stages. Paths travel as bytes both ways
 * (decodeBytes/encodeBytes), so a name that is not valid UTF-8 is kept exactly.
 */

/** A pathspec that matches exactly `path` (and everything below it), with no glob or magic. */
export function excludeSpec(path: string): string {
  return `:(exclude,literal)${path}`;
}

/** NUL-terminated records as bytes for git's stdin. */
function nulInput(items: readonly string[]): Buffer {
  return Buffer.concat(items.map((p) => Buffer.concat([encodeBytes(p), Buffer.from([0])])));
}

/**
 * Lists what a capture has to look at, in one process: files the index does not have yet and are
 * not ignored (untracked), tracked files whose stat data changed (modified or deleted), and nested
 * repositories, which git reports as a directory and does not enter. `excluded` are
 * workspace-relative paths never looked at (our home, an artifacts directory).
 */
export async function listCaptureCandidates(
  repo: CheckpointRepo,
  excluded: readonly string[],
): Promise<CandidateListing> {
  const res = await runGitBuffer(repo, [
    'ls-files',
    '-z',
    '-t',
    '--others',
    '--modified',
    '--exclude-standard',
    '--',
    '.',
    ...excluded.map(excludeSpec),
  ]);
  return parseCandidateListing(decodeBytes(res.stdout));
}

/** Paths the index tracks that the ignore rules now match: they must leave the capture. */
export async function listIgnoredTracked(repo: CheckpointRepo): Promise<string[]> {
  const res = await runGitBuffer(repo, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard']);
  return splitNul(decodeBytes(res.stdout));
}

/** Removes paths (files, or directories recursively) from the index only; the workspace is not touched. */
export async function unstagePaths(repo: CheckpointRepo, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await runGit(
    repo,
    [
      '--literal-pathspecs',
      'rm',
      '--cached',
      '-r',
      '-f',
      '-q',
      '--ignore-unmatch',
      '--pathspec-from-file=-',
      '--pathspec-file-nul',
    ],
    {
      input: nulInput(paths),
    },
  );
}

/**
 * Stages the whole work tree into the index (`add -A`: new, changed and deleted files), except
 * `excluded` paths. Pathspecs go through stdin, so any number of exclusions fits. A failure
 * throws: a capture that did not stage must never fall back to an older tree.
 */
export async function stageWorkspace(repo: CheckpointRepo, excluded: readonly string[]): Promise<void> {
  await runGit(repo, [...STAGING_CONFIG, 'add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    input: nulInput(['.', ...excluded.map(excludeSpec)]),
  });
}

/**
 * Stages exactly `paths` (new, changed or deleted files; never directories) with one
 * `update-index --add --remove --replace` process. After listCaptureCandidates has found what
 * changed, this saves add's second pass over the whole work tree.
 */
export async function stagePaths(repo: CheckpointRepo, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await runGit(repo, [...STAGING_CONFIG, 'update-index', '--add', '--remove', '--replace', '-z', '--stdin'], {
    input: nulInput(paths),
  });
}

/**
 * Makes a new index of `treeish` (a damaged one was set aside; recovery.ts). read-tree leaves its
 * entries without stat data, so a refresh records that of every file that matches its entry: the
 * next capture then re-reads only what changed, as with the index it replaces. The work tree is
 * not touched; a file that differs stays as read-tree left it (exit status 1), for the capture.
 */
export async function indexFromTree(repo: CheckpointRepo, treeish: string): Promise<void> {
  await runGit(repo, ['read-tree', '--end-of-options', treeish]);
  await runGit(repo, ['update-index', '-q', '--ignore-missing', '--refresh'], { okExitCodes: [1] });
}

/**
 * The paths of the index entries whose object the repository lacks (a pack or a loose object
 * lost, or one git cannot read), those objects' ids, and how many entries there are: one
 * `ls-files`, one `cat-file`. write-tree checks the
 * objects of the directories it has to write, and takes every other one on trust from the cache
 * of trees; this is for when objects may have gone (objectsChangedSince), not for every capture.
 * A gitlink names no object of this repository.
 */
export async function entriesWithoutObject(
  repo: CheckpointRepo,
): Promise<{ missing: string[]; ids: string[]; entries: number }> {
  const entries = (await readIndexEntries(repo)).filter((e) => e.mode !== GITLINK_MODE);
  const answers = await batchCheck(repo, [...new Set(entries.map((e) => e.oid))]);
  const gone = new Set(answers.filter((a) => !a.found).map((a) => a.name));
  return {
    missing: entries.filter((e) => gone.has(e.oid)).map((e) => e.path),
    ids: [...gone],
    entries: entries.length,
  };
}

/**
 * Takes `paths` out of the index (never the work tree), so that the next capture finds them
 * untracked and stages them again from the files, object and all. update-index looks each up:
 * no pathspec is matched against every entry.
 */
export async function dropIndexEntries(repo: CheckpointRepo, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await runGit(repo, ['update-index', '--force-remove', '-z', '--stdin'], { input: nulInput(paths) });
}

/** Writes the index as a tree object and returns its id. */
export async function writeTree(repo: CheckpointRepo): Promise<string> {
  const res = await runGit(repo, ['write-tree']);
  return assertGitId(res.stdout.trim(), 'write-tree');
}

/**
 * The subset of `paths` that the workspace's ignore rules match, whether or not the index tracks
 * them (one process). A path below a symbolic link or a file (a directory the agent replaced) is
 * none: ignore rules do not reach there, and git would refuse the whole question. Nor is one of
 * `tracked`: the workspace's repository tracks it, and git ignores no tracked file.
 */
export async function ignoredPaths(
  repo: CheckpointRepo,
  paths: readonly string[],
  tracked: ReadonlySet<string> = new Set(),
): Promise<Set<string>> {
  const real = new Map<string, boolean>();
  const askable: string[] = [];
  for (const path of paths)
    if (!tracked.has(path) && (await leadingDirsAreReal(repo.workTree, path, real))) askable.push(path);
  if (askable.length === 0) return new Set();
  const res = await runGitBuffer(repo, ['check-ignore', '-z', '--stdin', '--no-index'], {
    input: nulInput(askable),
    okExitCodes: [1],
  });
  return new Set(splitNul(decodeBytes(res.stdout)));
}
