/**
 * V8's code cache for the CLI bundle: the bytecode of every function a command ran, saved after a
 * run and handed back to V8 by the next one, so a CLI process skips compiling what it runs (about
 * 40 to 70 ms a process; docs/performance.md). The cache is disposable and lives where the tools
 * of a project keep theirs, `node_modules/.cache/agentgate-snapshot/` (nothing is written under
 * $HOME or the temporary directory); off with AGENTGATE_NO_CODE_CACHE=1.
 *
 * V8 checks that a cache was made by the same V8, flags and source length, but not that its bytes
 * are intact (a flipped byte can crash the process), so every file carries a SHA-256 of its
 * contents, checked before V8 sees it. Layout: sha256(rest) [32 bytes], the length of the key list
 * [uint32 BE], the key list (command names, one per line), V8's data. Its bytes become code, so
 * the directory and the file must be this user's and writable by nobody else.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';

export interface CodeCache {
  /** The commands (`runs`, `checkpoint track`) whose runs the cache holds the code of. */
  keys: string[];
  data: Buffer;
}

/** Cache files kept (one per CLI build, Node version and architecture), newest first. */
const KEEP_FILES = 8;
const HASH_BYTES = 32;

/**
 * The cache directory for the bin in `binDir`, or null when caching is off: `.cache` in the
 * node_modules the package is installed in, else (a checkout) in the package's own node_modules.
 */
export function cacheDir(binDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.AGENTGATE_NO_CODE_CACHE === '1') return null;
  const parts = binDir.split(sep);
  const installedIn = parts.lastIndexOf('node_modules');
  const nodeModules =
    installedIn === -1 ? join(binDir, '..', '..', 'node_modules') : parts.slice(0, installedIn + 1).join(sep);
  return join(nodeModules, '.cache', 'agentgate-snapshot');
}

/** This user's and writable by nobody else (a package may be installed where others can write). */
function isPrivate(stat: Stats): boolean {
  return (stat.mode & 0o022) === 0 && (typeof process.getuid !== 'function' || stat.uid === process.getuid());
}

function isPrivateDir(dir: string): boolean {
  const stat = lstatSync(dir);
  return stat.isDirectory() && isPrivate(stat);
}

/** The cache file of this CLI build on this Node. */
export function cacheFile(dir: string, bundleId: string): string {
  return join(dir, `${bundleId}-node${process.version}-${process.arch}.v8`);
}

export function encodeCodeCache(cache: CodeCache): Buffer {
  const keys = Buffer.from(cache.keys.join('\n'), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(keys.length);
  const rest = Buffer.concat([length, keys, cache.data]);
  return Buffer.concat([createHash('sha256').update(rest).digest(), rest]);
}

/** The cache in `bytes`, or null when they are not a whole, intact cache file. */
export function decodeCodeCache(bytes: Buffer): CodeCache | null {
  if (bytes.length < HASH_BYTES + 4) return null;
  const rest = bytes.subarray(HASH_BYTES);
  if (!createHash('sha256').update(rest).digest().equals(bytes.subarray(0, HASH_BYTES))) return null;
  const keysEnd = 4 + rest.readUInt32BE(0);
  if (keysEnd > rest.length) return null;
  const keys = rest.subarray(4, keysEnd).toString('utf8');
  return { keys: keys === '' ? [] : keys.split('\n'), data: rest.subarray(keysEnd) };
}

/**
 * Reads the cache at `path`: only a regular file in a private directory, private itself, and
 * intact. Null in every other case, errors included: a cache that
 * cannot be used is rebuilt, never reported.
 */
export function readCodeCache(path: string): CodeCache | null {
  let fd: number | undefined;
  try {
    if (!isPrivateDir(dirname(path))) return null;
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    if (!stat.isFile() || !isPrivate(stat)) return null;
    return decodeCodeCache(readFileSync(fd));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes the cache (atomically, into a private directory only) and prunes old builds'. */
export async function writeCodeCache(path: string, dir: string, cache: CodeCache): Promise<void> {
  try {
    mkdirSync(dirname(dir), { recursive: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateDir(dir)) return;
    await writeFileAtomic(path, encodeCodeCache(cache));
    const files = readdirSync(dir)
      .filter((name) => name.endsWith('.v8'))
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const old of files.slice(KEEP_FILES)) rmSync(old.path, { force: true });
  } catch {
    // A cache that cannot be written costs the next run its compile time, nothing else.
  }
}
