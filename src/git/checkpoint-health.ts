import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, type BigIntStats } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readRegularFile } from '../fs/regular-file.js';
import { runGit, type GitOptions } from './runner.js';

/**
 * What is wrong with a checkpoint repository, found from its files alone (repoDamage, and
 * indexDamage for its index): no git process, since every agent hook pays for this check; a ref naming a missing object is asked of
 * git only once a git call failed (refsWithoutObject). Only what we can tell for sure counts: a file that is there
 * but unreadable (permissions, I/O) is an error of its own, never taken for damage.
 */
export interface RepoDamage {
  /** Why git cannot open the repository at all (its git dir, HEAD, objects or refs gone or garbled); null when it can. */
  unusable: string | null;
  /** Of the refs asked about, those whose loose file holds no object id: git skips them when listing and refuses to update them. */
  brokenRefs: string[];
  /** Lines of `packed-refs` git cannot read ("unexpected line in packed-refs": every ref command fails). */
  garbledPacked: string[];
  /** Why the index cannot be used (empty, cut short, garbled: indexDamage); null when it can, or was not asked about. */
  index: string | null;
}

const HEAD_TEXT = /^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/;
const REF_TEXT = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/;

/**
 * Checks the repository at `gitDir`, the loose files of `refs` (full ref names) in it, the index
 * file `indexFile` when given, and that every loose ref under `refPrefixes` (such as
 * `refs/checkpoints/`) is a regular file: git reads a FIFO there as a ref and waits on it for ever
 * (every command, every agent hook, would hang), and a link may name one. One readdir per prefix.
 */
export async function repoDamage(
  gitDir: string,
  refs: readonly string[],
  indexFile?: string,
  refPrefixes: readonly string[] = [],
): Promise<RepoDamage> {
  const [index, odd, dir, head, packed, objects, refsDir, ...texts] = await Promise.all([
    indexFile === undefined ? null : indexDamage(indexFile),
    Promise.all(refPrefixes.map((prefix) => oddLooseRefs(gitDir, prefix))).then((lists) => lists.flat()),
    kindOf(gitDir),
    readText(join(gitDir, 'HEAD')),
    readText(join(gitDir, 'packed-refs')),
    kindOf(join(gitDir, 'objects')),
    kindOf(join(gitDir, 'refs')),
    ...refs.map((ref) => readText(join(gitDir, ...ref.split('/')))),
  ]);
  const unusable =
    dir !== 'dir'
      ? `its git directory ${dir === 'missing' ? 'is missing' : 'is not a directory'}`
      : head === null
        ? 'its HEAD file is missing'
        : !HEAD_TEXT.test(head)
          ? 'its HEAD file is damaged'
          : objects !== 'dir'
            ? 'its objects directory is missing'
            : refsDir !== 'dir'
              ? 'its refs directory is missing'
              : null;
  const brokenRefs = [
    ...new Set([
      ...refs.filter((_, i) => {
        const text = texts[i];
        return text !== null && text !== undefined && !REF_TEXT.test(text);
      }),
      ...odd,
    ]),
  ];
  const garbledPacked = packed === null ? [] : parsePackedRefs(packed).garbled;
  return unusable === null
    ? { unusable, brokenRefs, garbledPacked, index }
    : { unusable, brokenRefs: [], garbledPacked: [], index: null };
}

/** The loose refs under `prefix` (`refs/checkpoints/`) that are neither a regular file nor a directory. */
async function oddLooseRefs(gitDir: string, prefix: string): Promise<string[]> {
  const dir = join(gitDir, ...prefix.split('/'));
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((error: unknown) => {
    if (isAbsent(error)) return [];
    throw error;
  });
  return entries
    .filter((e) => !e.isFile() && !e.isDirectory())
    .map((e) => `${prefix}${relative(dir, join(e.parentPath, e.name)).split(sep).join('/')}`);
}

/** The index file's header: "DIRC", its version, its number of entries. */
const INDEX_HEADER = 12;
const INDEX_VERSIONS = [2, 3, 4];
/** The checksum ending an index: SHA-1, or SHA-256 in a repository of that format. */
const INDEX_HASHES = [
  ['sha1', 20],
  ['sha256', 32],
] as const;

/**
 * Why git cannot use the index file at `path` as it is; null when it is whole or absent (git then
 * starts from an empty index, as a store's first capture does). git checks neither the index's
 * checksum nor its length against its entries when it reads it (only fsck does): an index cut
 * short can read as one with fewer entries, and the capture is then silently wrong. Its shared
 * index (split index) is git's to refuse when missing or cut short: recovery.ts catches that.
 */
export async function indexDamage(path: string): Promise<string | null> {
  const info = await lstat(path).catch((error: unknown) => {
    if (isAbsent(error)) return null;
    throw error;
  });
  if (info === null) return null;
  // A directory there fails every read; git would write through a link to wherever it points.
  if (!info.isFile()) return 'its index is not a plain file';
  const bytes = await readFile(path);
  if (bytes.length === 0) return 'its index file is empty';
  if (bytes.length < INDEX_HEADER + 20) return 'its index file is cut short';
  if (bytes.toString('latin1', 0, 4) !== 'DIRC' || !INDEX_VERSIONS.includes(bytes.readUInt32BE(4)))
    return 'its index file does not start as an index does';
  const whole = INDEX_HASHES.some(([algorithm, size]) => {
    const end = bytes.length - size;
    return (
      end >= INDEX_HEADER &&
      createHash(algorithm).update(bytes.subarray(0, end)).digest().equals(bytes.subarray(end))
    );
  });
  return whole ? null : 'its index file does not match its checksum';
}

const PACKED_REF = /^([0-9a-f]{40}|[0-9a-f]{64}) (refs\/\S+)$/;
const PACKED_PEEL = /^\^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** The refs of a `packed-refs` text and the lines of it that git would refuse. */
export function parsePackedRefs(text: string): { refs: Map<string, string>; garbled: string[] } {
  const refs = new Map<string, string>();
  const garbled: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# ') || PACKED_PEEL.test(line)) continue;
    const m = PACKED_REF.exec(line);
    if (m === null) garbled.push(line);
    else refs.set(m[2] as string, m[1] as string);
  }
  return { refs, garbled };
}

/**
 * The refs under `prefixes` (loose files over `packed-refs`) that name an object the repository
 * lacks (a marker written just before a power loss whose object never reached the disk): git's
 * ref listing then fails "missing object" for ever. One `cat-file`, run only after a git call
 * failed so: never on the path of a hook that works. Garbage in a loose file is repoDamage's.
 */
export async function refsWithoutObject(
  repo: GitOptions,
  gitDir: string,
  prefixes: readonly string[],
): Promise<string[]> {
  const packed = await readText(join(gitDir, 'packed-refs'));
  const ids = new Map<string, string>();
  if (packed !== null)
    for (const [ref, id] of parsePackedRefs(packed).refs)
      if (prefixes.some((p) => ref.startsWith(p))) ids.set(ref, id);
  for (const prefix of prefixes) {
    const dir = join(gitDir, ...prefix.split('/'));
    const names = await readdir(dir, { recursive: true }).catch((error: unknown) => {
      if (isAbsent(error)) return [];
      throw error;
    });
    for (const name of names) {
      const text = await readText(join(dir, name));
      if (text !== null && REF_TEXT.test(text))
        ids.set(`${prefix}${name.split(/[\\/]/).join('/')}`, text.trim());
    }
  }
  if (ids.size === 0) return [];
  const unique = [...new Set(ids.values())];
  const res = await runGit(repo, ['cat-file', '--batch-check'], { input: `${unique.join('\n')}\n` });
  const missing = new Set(
    res.stdout
      .split('\n')
      .filter((line) => line.endsWith(' missing'))
      .map((line) => line.slice(0, -' missing'.length)),
  );
  return [...ids].filter(([, id]) => missing.has(id)).map(([ref]) => ref);
}

const FAN_OUT = /^[0-9a-f]{2}$/;

/**
 * Whether objects may have gone from the repository at `gitDir` since git last wrote the first of
 * `since` that is there (the latest marker, which every checkpoint rewrites after its objects;
 * packed-refs after a gc): removing a loose object changes its fan-out directory, removing a pack
 * the pack directory, cutting one short its file. Adding objects changes them too (a diff's
 * capture, a packing), so that the next capture checks its index once for nothing. False when
 * none of `since` is there (no checkpoint to compare with). One lstat per directory and pack file
 * (about 260), no git process: every capture asks, before it writes. Synchronous on purpose: 260
 * lstats take a quarter of the time they take through the thread pool, and none can see the
 * capture's own writes.
 */
export function objectsChangedSince(gitDir: string, since: readonly string[]): boolean {
  const reference = since
    .map((file) => lstatSync(file, { bigint: true, throwIfNoEntry: false }))
    .find(Boolean);
  if (reference === undefined) return false;
  try {
    const objects = join(gitDir, 'objects');
    const pack = join(objects, 'pack');
    const dirs = readdirSync(objects).filter((name) => FAN_OUT.test(name) || name === 'pack');
    const paths = [
      objects,
      ...dirs.map((name) => join(objects, name)),
      ...readdirSync(pack).map((name) => join(pack, name)),
    ];
    // The change time too: no one can set it back, and a rename into place (how git writes a ref) sets it.
    const at = (st: BigIntStats) => (st.ctimeNs > st.mtimeNs ? st.ctimeNs : st.mtimeNs);
    const since = at(reference);
    return paths.some((path) => {
      const st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
      return st === undefined || at(st) > since;
    });
  } catch (error) {
    if (isAbsent(error)) return true;
    throw error;
  }
}

async function kindOf(path: string): Promise<'missing' | 'dir' | 'other'> {
  try {
    return (await lstat(path)).isDirectory() ? 'dir' : 'other';
  } catch (error) {
    if (isAbsent(error)) return 'missing';
    throw error;
  }
}

/**
 * What a FIFO, socket or device standing as a store file reads as: text no HEAD, ref or line of
 * `packed-refs` can be, so that it is damage (it is never read: reading one waits for a writer).
 */
const NOT_A_FILE_TEXT = '\0 not a regular file';

/** A file's text; null when there is none (a directory standing there counts as none too). */
async function readText(path: string): Promise<string | null> {
  try {
    const read = await readRegularFile(path);
    return read === null ? null : 'bytes' in read ? read.bytes.toString('utf8') : NOT_A_FILE_TEXT;
  } catch (error) {
    if (isAbsent(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
    throw error;
  }
}

function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
