import { createHash } from 'node:crypto';
import { GitFailedError, GitOutputUnparseableError, InvalidArgumentError } from '../errors.js';
import { decodeBytes, encodeBytes } from '../fs/path-bytes.js';
import { parseBatchCheck, type BatchCheckAnswer } from './parsers/batch-check.js';
import { assertGitId, isFullId } from './ids.js';
import { runGit, runGitBuffer, runGitToFile, type GitOptions } from './runner.js';

/*
 * Batched object and ref plumbing for the records that travel (src/sharing): a fixed, small number
 * of git processes whatever the number of records.
 */

export type ObjectFormat = 'sha1' | 'sha256';
export type ObjectType = 'blob' | 'tree' | 'commit';

/** The repository's object format. */
export async function objectFormat(repo: GitOptions): Promise<ObjectFormat> {
  const out = (await runGit(repo, ['rev-parse', '--show-object-format'])).stdout.trim();
  if (out !== 'sha1' && out !== 'sha256')
    throw new GitOutputUnparseableError(`unknown object format ${JSON.stringify(out)}`, {
      details: { format: out },
    });
  return out;
}

/** The id git gives an object of `type` with `content` (pure: no git runs). */
export function objectId(format: ObjectFormat, type: ObjectType, content: Buffer): string {
  return createHash(format).update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** The content of a tree of regular files (mode 100644), entries sorted as git sorts them. */
export function treeContent(entries: ReadonlyArray<{ name: string; blob: string }>): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  return Buffer.concat(
    sorted.flatMap((e) => [Buffer.from(`100644 ${e.name}\0`), Buffer.from(e.blob, 'hex')]),
  );
}

/**
 * `hash-object` for files of ours (records, gate logs), byte for byte: without `--no-filters` git
 * applies the workspace's attributes (`* text=auto`, `eol`, `ident`, `working-tree-encoding`, its
 * `core.autocrlf`) to a path even outside the work tree, so a gate log with CRLF lines would be
 * published as another text than its recorded digest (every receiver refuses the verdict).
 */
const HASH_FILES = ['hash-object', '--no-filters', '-w', '--stdin-paths'] as const;

/**
 * Writes objects (their content in the files given) into the object store with one `hash-object
 * -w --stdin-paths` process per type, and checks that git gave each the id expected.
 */
export async function writeObjects(
  repo: GitOptions,
  type: ObjectType,
  files: ReadonlyArray<{ path: string; id: string }>,
): Promise<void> {
  if (files.length === 0) return;
  for (const f of files)
    if (/[\n\r]/.test(f.path))
      throw new InvalidArgumentError(`object file path ${JSON.stringify(f.path)} holds a newline`, {
        details: { path: f.path },
      });
  const out = (
    await runGit(repo, [...HASH_FILES, '-t', type], {
      input: `${files.map((f) => f.path).join('\n')}\n`,
    })
  ).stdout
    .split('\n')
    .filter(Boolean);
  files.forEach((f, i) => {
    if (out[i] !== f.id)
      throw new GitFailedError(`git hash-object wrote ${out[i] ?? 'nothing'} where ${f.id} was expected`, {
        details: { path: f.path, expected: f.id, actual: out[i] },
      });
  });
}

/** Writes files (large ones too: git streams them) as blobs with one `hash-object` process; their ids, in order. */
export async function writeBlobFiles(repo: GitOptions, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  for (const path of paths)
    if (/[\n\r]/.test(path))
      throw new InvalidArgumentError(`file path ${JSON.stringify(path)} holds a newline`, {
        details: { path },
      });
  const out = (
    await runGit(repo, [...HASH_FILES, '-t', 'blob'], {
      input: `${paths.join('\n')}\n`,
    })
  ).stdout
    .split('\n')
    .filter(Boolean);
  return paths.map((path, i) => {
    const id = out[i];
    if (id === undefined || !isFullId(id))
      throw new GitFailedError(`git hash-object gave no id for ${path}`, { details: { path } });
    return id;
  });
}

/** Streams one blob (full id) into a new file at `file` (created, never followed or replaced); its size. */
export async function writeBlobToFile(repo: GitOptions, id: string, file: string): Promise<number> {
  if (!isFullId(id))
    throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, { details: { id } });
  return runGitToFile(repo, ['cat-file', 'blob', id], file);
}

export interface CommitRef {
  ref: string;
  sha: string;
  type: string;
  parents: string[];
}

/** Every ref under `prefix` with its object's type and parents: one `for-each-ref` process. */
export async function listRefsWithParents(repo: GitOptions, prefix: string): Promise<CommitRef[]> {
  if (!/^refs\/[^\0\n\r ]+$/.test(prefix))
    throw new InvalidArgumentError(`${JSON.stringify(prefix)} is not a ref prefix`, { details: { prefix } });
  const { stdout } = await runGit(repo, [
    'for-each-ref',
    '--format=%(objectname) %(objecttype) %(refname) %(parent)',
    prefix,
  ]);
  return parseRefsWithParents(stdout);
}

/** Parses `for-each-ref --format='%(objectname) %(objecttype) %(refname) %(parent)'` (pure). */
export function parseRefsWithParents(stdout: string): CommitRef[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha = '', type = '', ref = '', ...parents] = line.split(' ');
      return {
        sha: assertGitId(sha, 'for-each-ref'),
        type,
        ref,
        parents: parents.filter(Boolean).map((p) => assertGitId(p, 'for-each-ref')),
      };
    });
}

/**
 * `cat-file --batch-check` for many names in one process (names must not hold newlines). Names
 * travel as bytes both ways (`rev:path` with a path that is not UTF-8 is asked and answered exactly).
 */
export async function batchCheck(repo: GitOptions, names: readonly string[]): Promise<BatchCheckAnswer[]> {
  if (names.length === 0) return [];
  const out = await runGitBuffer(repo, ['cat-file', '--batch-check'], {
    input: encodeBytes(names.map((n) => `${n}\n`).join('')),
  });
  return parseBatchCheck(names, decodeBytes(out.stdout));
}

/**
 * The contents of many blobs (by full id) in one `cat-file --batch` process. The caller checks
 * sizes first (batchCheck), so that a hostile object cannot fill memory.
 */
export async function readBlobs(repo: GitOptions, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (ids.length === 0) return out;
  for (const id of ids)
    if (!isFullId(id))
      throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, { details: { id } });
  const buf = (
    await runGitBuffer(repo, ['cat-file', '--batch'], { input: ids.map((id) => `${id}\n`).join('') })
  ).stdout;
  let at = 0;
  for (const id of ids) {
    const nl = buf.indexOf(0x0a, at);
    const header = buf.subarray(at, nl).toString('utf8');
    const m = /^([0-9a-f]+) blob (\d+)$/.exec(header);
    if (!m || m[1] !== id)
      throw new GitOutputUnparseableError(
        `unexpected cat-file --batch answer ${JSON.stringify(header.slice(0, 100))} for ${id}`,
        { details: { id } },
      );
    const size = Number(m[2]);
    out.set(id, buf.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return out;
}
