/**
 * What `git status` cannot see in a work tree: a file whose bytes are not its blob, though git's
 * clean conversion turns them into it. The `ident` attribute collapses `$Id: anything $` to
 * `$Id$`, `text`/`eol`/`crlf` (and `core.autocrlf`) drop carriage returns, `working-tree-encoding`
 * re-encodes: status compares the converted bytes, so an agent that commits `t.js ident` can keep
 * code between `$Id:` and `$` that the tree (and every record of it) lacks, and a check run in the
 * work tree would run that code. Filter drivers need no look here: every call switches them off.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeBytes, encodeBytes, fsPath } from '../fs/path-bytes.js';
import { splitNul, unparseable } from './parsers/nul-records.js';
import type { IndexEntry } from './parsers/ls-files-tagged.js';
import type { Repo } from './repo.js';
import { batchCheck } from './record-objects.js';
import { runGit, runGitBuffer } from './runner.js';
import { makeTempDir } from '../fs/temp-dir.js';

/** The attributes that make git's clean conversion change a file's bytes. */
const CONVERTING = ['text', 'eol', 'crlf', 'ident', 'working-tree-encoding'] as const;

/** Files hashed at once: bounded open descriptors on a large tree. */
const HASH_CONCURRENCY = 16;

/** A regular file of the tree, and whether its size alone tells that its bytes are the blob's. */
interface TreeFile {
  path: string;
  oid: string;
  size: number;
  /**
   * Only CRs dropped (`text`, `eol`, `crlf`, `core.autocrlf`) and `$Id: ... $` collapsed: each
   * conversion makes the bytes shorter, so bytes that status found to convert into the blob are the
   * blob itself when they are as long. `working-tree-encoding` may keep the length: hashed always.
   */
  sizeTells: boolean;
}

/**
 * The regular files of `tree` (paths from the top level) that some attribute or `core.autocrlf`
 * converts, whose bytes in the work tree are neither the tree's blob nor what checking the blob
 * out writes (an honest `eol=crlf` file holds CRs, an `ident` one `$Id: <blob id> $`; so does an
 * isolated gate's checkout). A file that is absent or no longer a regular file is left to status,
 * which names it (or, absent under a sparse checkout, rightly passes over it). Hashed here, in
 * Node: never through git, which would convert them again.
 */
export async function convertedChanges(
  repo: Repo,
  tree: string,
  index: readonly IndexEntry[],
): Promise<string[]> {
  // The index's regular files stand for the tree's: where they differ, status says so (a staged
  // change) and the workspace is refused anyway; and no `ls-tree` of the whole tree is needed.
  const files = index.filter((e) => e.tag === 'H' && (e.mode === '100644' || e.mode === '100755'));
  if (files.length === 0) return [];
  const [autocrlf, converting] = await Promise.all([autocrlfOf(repo), convertedPaths(repo, files)]);
  const everyFile = autocrlf !== null && !/^(false|no|off|0|)$/i.test(autocrlf.trim());
  const converted = files.filter((f) => everyFile || converting.has(f.path));
  // Sizes only for the files that convert (usually none): `ls-tree -l` would read every blob's.
  const sizes = await batchCheck(
    repo,
    converted.map((f) => f.oid),
  );
  const candidates = converted.map((f, i): TreeFile => {
    const found = sizes[i];
    return {
      ...f,
      size: found?.found === true ? found.size : -1,
      sizeTells: converting.get(f.path) !== 'reencoded',
    };
  });
  const raw = await hashAll(candidates.map((f) => ({ ...f, path: join(repo.topLevel, f.path) })));
  const notBlob = candidates.flatMap((f, i) => {
    const id = raw[i];
    return id === null || id === undefined || id === f.oid ? [] : [{ ...f, raw: id }];
  });
  if (notBlob.length === 0) return [];
  const written = await checkedOut(repo, tree, notBlob);
  return notBlob.filter((f, i) => written[i] !== f.raw).map((f) => f.path);
}

/** The core.autocrlf git applies (null: unset), asked of git only when the repository's config sets it (Repo.autocrlf). */
async function autocrlfOf(repo: Repo): Promise<string | null> {
  if (repo.autocrlf !== undefined) return repo.autocrlf;
  const res = await runGit(repo, ['config', '--get', 'core.autocrlf'], { okExitCodes: [1] });
  return res.exitCode === 0 ? res.stdout : null;
}

/** The ids of what checking `files` of `tree` out writes, as an isolated checkout does (in a temp dir). */
async function checkedOut(
  repo: Repo,
  tree: string,
  files: ReadonlyArray<{ path: string; oid: string }>,
): Promise<Array<string | null>> {
  const dir = await makeTempDir('agentgate-checkout-');
  try {
    const work = join(dir, 'tree');
    await mkdir(work);
    const opts = { ...repo, cwd: work, workTree: work, indexFile: join(dir, 'index') };
    await runGit(opts, ['read-tree', tree]);
    await runGit(opts, ['checkout-index', '--force', '-z', '--stdin'], {
      input: Buffer.concat(files.map((f) => Buffer.concat([encodeBytes(f.path), Buffer.from([0])]))),
    });
    return await hashAll(files.map((f) => ({ path: join(work, f.path), oid: f.oid })));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * rawBlobId of each file, HASH_CONCURRENCY at a time. A file given its blob (`oid`, `size`) whose
 * size tells (TreeFile.sizeTells) and is the blob's is that blob, unread.
 */
async function hashAll(
  files: ReadonlyArray<{ path: string; oid: string; size?: number; sizeTells?: boolean }>,
): Promise<Array<string | null>> {
  const ids: Array<string | null> = [];
  for (let i = 0; i < files.length; i += HASH_CONCURRENCY)
    ids.push(
      ...(await Promise.all(
        files
          .slice(i, i + HASH_CONCURRENCY)
          .map((f) =>
            rawBlobId(f.path, f.oid.length, f.sizeTells === true ? { ...f, size: f.size ?? -1 } : null),
          ),
      )),
    );
  return ids;
}

/**
 * The paths one of CONVERTING applies to (neither unspecified nor unset), from one `check-attr`:
 * `reencoded` when `working-tree-encoding` does, else `shortened`.
 */
async function convertedPaths(
  repo: Repo,
  files: ReadonlyArray<{ path: string }>,
): Promise<Map<string, 'reencoded' | 'shortened'>> {
  const res = await runGitBuffer(repo, ['check-attr', '-z', '--stdin', ...CONVERTING], {
    input: Buffer.concat(files.map((f) => Buffer.concat([encodeBytes(f.path), Buffer.from([0])]))),
  });
  const fields = splitNul(decodeBytes(res.stdout));
  if (fields.length % 3 !== 0) throw unparseable('check-attr', 'not path, attribute, value triples');
  const out = new Map<string, 'reencoded' | 'shortened'>();
  for (let i = 0; i < fields.length; i += 3) {
    const [path, attribute, value] = fields.slice(i, i + 3) as [string, string, string];
    if (value === 'unspecified' || value === 'unset') continue;
    if (attribute === 'working-tree-encoding') out.set(path, 'reencoded');
    else if (!out.has(path)) out.set(path, 'shortened');
  }
  return out;
}

/**
 * The blob id of the regular file at `path`, its bytes as they are (`hash-object --no-filters`),
 * in the format of ids `idLength` long; null when no regular file stands there; `same.oid`, unread,
 * when its size is `same.size`. Opened without blocking and checked on the descriptor: a FIFO
 * swapped in is never read.
 */
async function rawBlobId(
  path: string,
  idLength: number,
  same: { oid: string; size: number } | null,
): Promise<string | null> {
  const handle = await open(
    fsPath(path),
    constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW,
  ).catch(() => null);
  if (handle === null) return null;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    if (same !== null && info.size === same.size) return same.oid;
    const hash = createHash(idLength === 64 ? 'sha256' : 'sha1').update(`blob ${info.size}\0`);
    let read = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      read += chunk.length;
    }
    // A file that changed size while read is not the blob of the size hashed: make sure it differs.
    return read === info.size ? hash.digest('hex') : 'changed while read';
  } finally {
    await handle.close();
  }
}
