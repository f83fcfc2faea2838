import { decodeBytes } from '../../fs/path-bytes.js';
import type { IndexEntry } from './ls-files-tagged.js';

/*
 * git's index file (`Documentation/gitformat-index.txt`), read without git: `ls-files -z -v -s`
 * prints 8.6 MB for an index of 100,000 entries, and Node took about 140 ms to take that output in
 * and parse it, twice per iteration; the file itself is read in 5 ms. Entries are read as git's own
 * reader takes them (name length from the flags, padding not checked, the trailing checksum not
 * verified); whatever this reader does not take as git would (a split or sparse index, a directory
 * entry, a future version, an extension git requires and this does not know, bytes that do not add
 * up) yields null, and the caller asks git.
 */

/** An index entry with the seconds of its cached ctime and mtime. */
export interface IndexFileEntry extends IndexEntry {
  ctime: number;
  mtime: number;
}

/** Which entries to keep, from their tag and mode: the others' names and ids are not decoded. */
export type EntryFilter = (tag: string, mode: string) => boolean;

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE = 0x3000;
const NAME_LENGTH = 0x0fff;
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;
/**
 * A directory's mode (git's `S_ISSPARSEDIR`): git replaces such an entry, in any index, with the
 * files of the tree it names, marked skip-worktree.
 */
const SPARSE_DIRECTORY = 0o040000;
/** The signature, the version and the number of entries. */
const HEADER = 12;

/**
 * The entries of an index file whose object ids are `idBytes` long (20 for SHA-1, 32 for SHA-256),
 * with the tags `ls-files -v -s` gives them; null when git should read it (see above).
 */
export function parseIndexFile(bytes: Buffer, idBytes: 20 | 32, keep?: EntryFilter): IndexFileEntry[] | null {
  if (bytes.length < HEADER + idBytes || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - idBytes;
  const fixed = 40 + idBytes;
  const modes = new Map<number, string>();
  const out: IndexFileEntry[] = [];
  let previous: Buffer | null = null;
  let at = HEADER;
  for (let i = 0; i < count; i++) {
    const start = at;
    if (start + fixed + 2 > end) return null;
    const flags = bytes.readUInt16BE(start + fixed);
    let name = start + fixed + 2;
    let extra = 0;
    if ((flags & EXTENDED) !== 0) {
      if (name + 2 > end) return null;
      extra = bytes.readUInt16BE(name);
      // git dies on an extended flag it does not know.
      if ((extra & ~(SKIP_WORKTREE | INTENT_TO_ADD)) !== 0) return null;
      name += 2;
    }
    const read: NameRead | null =
      version === 4
        ? prefixedName(bytes, name, end, flags, previous)
        : paddedName(bytes, name, end, start, flags);
    if (read === null) return null;
    if (read.path !== undefined) previous = read.path;
    at = read.next;
    const modeBits = bytes.readUInt32BE(start + 24);
    if (modeBits === SPARSE_DIRECTORY) return null;
    let mode = modes.get(modeBits);
    if (mode === undefined) modes.set(modeBits, (mode = modeBits.toString(8).padStart(6, '0')));
    if (mode.length !== 6) return null;
    const letter = (flags & STAGE) !== 0 ? 'M' : (extra & SKIP_WORKTREE) !== 0 ? 'S' : 'H';
    const tag = (flags & ASSUME_VALID) !== 0 ? letter.toLowerCase() : letter;
    if (keep !== undefined && !keep(tag, mode)) continue;
    // A NUL inside a name, which git would cut short there: looked for only in the names kept.
    if (read.path === undefined && bytes.indexOf(0, read.from) !== read.to) return null;
    out.push({
      tag,
      mode,
      oid: bytes.toString('hex', start + 40, start + fixed),
      path: decodeBytes(read.path ?? bytes.subarray(read.from, read.to)),
      ctime: bytes.readUInt32BE(start),
      mtime: bytes.readUInt32BE(start + 8),
    });
  }
  return extensionsUnderstood(bytes, at, end) ? out : null;
}

/**
 * Where a name's bytes are (`from` to its NUL at `to`) and where the next entry starts; `path`, a
 * version 4 name whole (the previous name's first bytes and these).
 */
interface NameRead {
  from: number;
  to: number;
  next: number;
  path?: Buffer;
}

/** Versions 2 and 3: the name, its NUL, then NULs up to a multiple of eight bytes from the entry's start. */
function paddedName(bytes: Buffer, name: number, end: number, start: number, flags: number): NameRead | null {
  let length = flags & NAME_LENGTH;
  if (length === NAME_LENGTH) length = bytes.indexOf(0, name) - name;
  const to = name + length;
  if (length <= 0 || to >= end || bytes[to] !== 0) return null;
  return { from: name, to, next: start + ((to - start + 8) & ~7) };
}

/**
 * Version 4: a varint, how many bytes of the previous name to drop (git ignores it on the first
 * entry), then the rest of the name and its NUL, with no padding.
 */
function prefixedName(
  bytes: Buffer,
  name: number,
  end: number,
  flags: number,
  previous: Buffer | null,
): NameRead | null {
  let from = name;
  let byte = bytes[from++] ?? 0;
  let drop = byte & 0x7f;
  while ((byte & 0x80) !== 0) {
    if (from >= end || drop >= 2 ** 24) return null;
    byte = bytes[from++] as number;
    drop = (drop + 1) * 128 + (byte & 0x7f);
  }
  const kept = previous === null ? 0 : previous.length - drop;
  if (kept < 0) return null;
  let length = flags & NAME_LENGTH;
  if (length === NAME_LENGTH) length = bytes.indexOf(0, from) - from + kept;
  const to = from + length - kept;
  if (to < from || to >= end || bytes[to] !== 0 || bytes.indexOf(0, from) !== to) return null;
  const rest = bytes.subarray(from, to);
  const path = kept === 0 ? rest : Buffer.concat([(previous as Buffer).subarray(0, kept), rest]);
  return path.length === 0 ? null : { from, to, next: to + 1, path };
}

/** Whether every extension after the entries is one git reads without it, or this reader knows. */
function extensionsUnderstood(bytes: Buffer, at: number, end: number): boolean {
  while (at < end) {
    if (at + 8 > end) return false;
    const first = bytes[at] as number;
    const size = bytes.readUInt32BE(at + 4);
    // A lower-case signature is one git must understand: a split index (`link`), a sparse one (`sdir`).
    if (first < 0x41 || first > 0x5a) return false;
    at += 8 + size;
  }
  return at === end;
}
