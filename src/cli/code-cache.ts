/**
 * V8's code cache for the CLI bundle: the bytecode of the functions a command ran, saved after a
 * run and handed back to V8 by the next run of that command, so a CLI process skips compiling what
 * it runs (docs/performance.md). One file per command, so that a process reads only the code its
 * command needs. The cache is disposable and lives where the tools of a project keep theirs,
 * `node_modules/.cache/agentgate-snapshot/` (nothing is written under $HOME or the temporary
 * directory); off with AGENTGATE_NO_CODE_CACHE=1.
 *
 * V8 checks that a cache was made by the same V8, flags and source length, but not that its bytes
 * are intact (a flipped byte can crash the process), so every file carries a SHA-256 of its
 * contents, checked before V8 sees it. Layout: sha256(rest) [32 bytes], 1 if the run that made it
 * succeeded else 0 [1 byte], V8's data. Its bytes become code, so the directory and the file must
 * be this user's and writable by nobody else.
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
import { sweepTempFiles } from '../fs/sweep.js';
import { COMMAND_GROUPS } from './groups.js';

export interface CodeCache {
  /** Made by a run that succeeded: a failed run may have skipped most of its command's code. */
  complete: boolean;
  data: Buffer;
}

/** CLI builds (bundle and Node version) whose files are kept, most recently written first. */
const KEEP_BUILDS = 4;
const HASH_BYTES = 32;
/** A command word as the CLI spells one: lower case, with hyphens. */
const WORD = /^[a-z][a-z-]*$/;

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

/**
 * The command an argument list names, as far as its leading words tell (`runs`, `checkpoint
 * track`), or null when it starts with an option. A guess, made before the CLI is loaded: the bin
 * writes a cache only when the command that ran is the one guessed.
 */
export function guessCommand(argv: readonly string[]): string | null {
  const [first, second] = argv;
  if (first === undefined || !WORD.test(first)) return null;
  return COMMAND_GROUPS.includes(first) && second !== undefined && WORD.test(second)
    ? `${first} ${second}`
    : first;
}

/** `<bundle id>-<node version>-<arch>.<command>.v8`, `none` standing for no command (`--version`). */
export function cacheFile(dir: string, bundleId: string, command: string | null): string {
  const build = `${bundleId}-${process.version.replaceAll('.', '_')}-${process.arch}`;
  return join(dir, `${build}.${command === null ? 'none' : command.replace(' ', '+')}.v8`);
}

export function encodeCodeCache(cache: CodeCache): Buffer {
  const rest = Buffer.concat([Buffer.from([cache.complete ? 1 : 0]), cache.data]);
  return Buffer.concat([createHash('sha256').update(rest).digest(), rest]);
}

/** The cache in `bytes`, or null when they are not a whole, intact cache file. */
export function decodeCodeCache(bytes: Buffer): CodeCache | null {
  if (bytes.length < HASH_BYTES + 1) return null;
  const rest = bytes.subarray(HASH_BYTES);
  if (!createHash('sha256').update(rest).digest().equals(bytes.subarray(0, HASH_BYTES))) return null;
  if (rest[0] !== 0 && rest[0] !== 1) return null;
  return { complete: rest[0] === 1, data: rest.subarray(1) };
}

/** This user's and writable by nobody else (a package may be installed where others can write). */
function isPrivate(stat: Stats): boolean {
  return (stat.mode & 0o022) === 0 && (typeof process.getuid !== 'function' || stat.uid === process.getuid());
}

function isPrivateDir(dir: string): boolean {
  const stat = lstatSync(dir);
  return stat.isDirectory() && isPrivate(stat);
}

/**
 * Reads the cache at `path`: only a regular file in a private directory, private itself, and
 * intact. Null in every other case, errors included: a cache that cannot be used is rebuilt, never
 * reported.
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

/**
 * Writes the cache (atomically, into a private directory only) and removes old builds' files and
 * dead writers' temp files.
 */
export async function writeCodeCache(path: string, cache: CodeCache): Promise<void> {
  const dir = dirname(path);
  try {
    mkdirSync(dirname(dir), { recursive: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateDir(dir)) return;
    await writeFileAtomic(path, encodeCodeCache(cache));
    pruneBuilds(dir);
    await sweepTempFiles(dir); // what a process killed while writing left behind
  } catch {
    // A cache that cannot be written costs the next run its compile time, nothing else.
  }
}

/** Keeps the files of the KEEP_BUILDS builds written most recently. */
function pruneBuilds(dir: string): void {
  const buildOf = (name: string) => name.slice(0, name.indexOf('.'));
  const newest = new Map<string, number>();
  const files = readdirSync(dir).filter((name) => name.endsWith('.v8'));
  for (const name of files)
    newest.set(buildOf(name), Math.max(newest.get(buildOf(name)) ?? 0, statSync(join(dir, name)).mtimeMs));
  const keep = new Set(
    [...newest]
      .sort((a, b) => b[1] - a[1])
      .slice(0, KEEP_BUILDS)
      .map(([build]) => build),
  );
  for (const name of files) if (!keep.has(buildOf(name))) rmSync(join(dir, name), { force: true });
}
