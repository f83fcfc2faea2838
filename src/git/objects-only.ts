import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GitFailedError, ObjectMissingError } from '../errors.js';
import { runGitBuffer, type GitOptions } from './runner.js';
import { makeTempDir } from '../fs/temp-dir.js';
import { makeDirs } from '../fs/make-dirs.js';

/**
 * Runs `fn` with git options under which a diff of two trees (given by full id: `objectId` is one
 * of them, for its length) reads no attributes at all: not the work tree's `.gitattributes`
 * (committed or not), not the index's, not the repository's `info/attributes`. A snapshot's stats
 * and patch are otherwise decided by whatever attributes the repository holds when they are
 * computed: a later iteration that marks `package-lock.json -diff` made every earlier iteration's
 * lock file binary in `verify` (a failed `stats` check) and in a regenerated patch. git 2.39 has no
 * `--attr-source`, so git runs on a git dir of its own, in an empty directory that is also its work
 * tree, with an index file that does not exist: that git dir borrows the repository's objects as
 * an alternate and has no config but the object format (nor does it read the repository's: its
 * diff settings cannot change a byte either); core.attributesFile is pinned to none.
 */
export async function withObjectsOnly<T>(
  repo: GitOptions,
  objectId: string,
  fn: (objectsOnly: GitOptions) => Promise<T>,
): Promise<T> {
  const objects = await objectsDir(repo.gitDir ?? (await absoluteGitDir(repo)));
  const empty = await makeTempDir('agentgate-noattr-');
  try {
    const gitDir = join(empty, 'git');
    await makeDirs(join(gitDir, 'objects', 'info'));
    await mkdir(join(gitDir, 'refs'));
    await Promise.all([
      writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n'),
      writeFile(join(gitDir, 'config'), objectId.length === 64 ? SHA256_CONFIG : SHA1_CONFIG),
      writeFile(join(gitDir, 'objects', 'info', 'alternates'), `${quoted(objects)}\n`),
    ]);
    return await fn({
      ...repo,
      cwd: empty,
      gitDir,
      workTree: empty,
      indexFile: join(empty, 'index'),
      config: [...(repo.config ?? []), 'core.attributesFile=/dev/null'],
    }).catch((error: unknown) => {
      throw missingObject(error) ?? error;
    });
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}

/**
 * OBJECT_MISSING for a diff that could not read an object of trees that were found: a partial
 * clone's (this git dir is no promisor, so git says nothing of lazy fetching) or a damaged store's.
 */
function missingObject(error: unknown): ObjectMissingError | null {
  const stderr = error instanceof GitFailedError ? String(error.details.stderr ?? '') : '';
  const id = /(?:unable to read|bad object|missing (?:blob|tree)) ([0-9a-f]{40,64})/.exec(stderr)?.[1];
  if (id === undefined) return null;
  return new ObjectMissingError(
    `a diff needs object ${id}, which this repository does not have (a partial clone, or a damaged object store), and agentgate never fetches objects lazily; fetch them first (git fetch --refetch, or a full clone), then retry`,
    { cause: error, details: { ...(error as GitFailedError).details, object: id } },
  );
}

const SHA1_CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const SHA256_CONFIG = '[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = sha256\n';

/** The repository's object directory: a linked worktree's git dir names its common dir in `commondir`. */
async function objectsDir(gitDir: string): Promise<string> {
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => null);
  return join(common === null ? gitDir : resolve(gitDir, common.replace(/\n$/, '')), 'objects');
}

/** A path as one line of an alternates file: C-quoted when it would not read back as itself. */
function quoted(path: string): string {
  if (!/^[#"\s]|[\\\n\r]|\s$/.test(path)) return path;
  const escaped = path
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
  return `"${escaped}"`;
}

async function absoluteGitDir(repo: GitOptions): Promise<string> {
  return (await runGitBuffer(repo, ['rev-parse', '--absolute-git-dir'])).stdout.toString('utf8').trim();
}
