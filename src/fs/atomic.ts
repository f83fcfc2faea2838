import { lstat, open, readlink, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AgentgateError, InvalidArgumentError, WriteFailedError } from '../errors.js';
import { randomHex } from './random.js';
import { makeTempDir } from './temp-dir.js';
import { makeDirs } from './make-dirs.js';
import { removedOnSignal } from './signal-cleanup.js';

/**
 * The one fsync policy of the project, for every file we create or replace:
 *
 *   1. write the new content to a temp file in the destination's own directory (same filesystem),
 *   2. fsync the temp file (its data reaches the disk before it becomes visible),
 *   3. rename it over the destination (readers see the old file or the whole new one, never half),
 *   4. fsync the directory (the rename itself survives a crash).
 *
 * Step 4 is best effort: some filesystems refuse to fsync a directory, and the rename has already
 * happened, so that failure is not reported as a failed write. Temp names carry our pid
 * (TEMP_NAME) so that a killed process's leftovers can be told apart and swept (see sweep.ts).
 */

/** `.<name>.<pid>.<12 hex>.tmp`: the temp files this module creates. */
export const TEMP_NAME = /^\..*\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/** A fresh temp path beside `path`. */
function tempPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomHex(6)}.tmp`);
}

/**
 * Replaces `path` whole: `fill` writes the temp file (any way it likes: a write, a stream, a copy),
 * then the policy above makes it durable and visible. On failure the previous file is left as it
 * was and the temp file is removed; a filesystem error becomes WRITE_FAILED, an AgentgateError from
 * `fill` passes through.
 */
export async function replaceFileAtomic<T>(
  path: string,
  fill: (temp: string) => Promise<T>,
  opts: { removedOnSignal?: boolean } = {},
): Promise<T> {
  const dir = dirname(path);
  const temp = tempPathBeside(path);
  const write = async () => {
    await makeDirs(dir);
    const result = await fill(temp);
    await fsyncFile(temp);
    await rename(temp, path);
    await fsyncDir(dir);
    return result;
  };
  try {
    return opts.removedOnSignal === true ? await removedOnSignal(temp, write) : await write();
  } catch (cause) {
    await rm(temp, { force: true }).catch(() => undefined);
    if (cause instanceof AgentgateError) throw cause;
    throw new WriteFailedError(
      `could not write ${path} (${errnoOf(cause)}); check free space and permissions, then retry`,
      { cause, details: { path } },
    );
  }
}

/**
 * Writes a file the user named (`-o FILE`). A regular file, or a new one, is replaced atomically
 * as replaceFileAtomic does. A symbolic link, a device, a FIFO or a socket (`/dev/stdout`,
 * `/dev/null`, a pipe) is written into, following links, as a shell redirection does: a rename
 * would put a plain file in its place for every later process. Never for our own files, where a
 * planted link or FIFO must be replaced, not followed. A name not there yet that holds U+FFFD
 * (Node's reading of a name that is not UTF-8) is INVALID_ARGUMENT: another file would be written.
 */
export async function writeOutputFile<T>(path: string, fill: (temp: string) => Promise<T>): Promise<T> {
  const st = await lstat(path).catch(() => null);
  // Half a surrogate pair has no UTF-8 form: the file would be written with U+FFFD there.
  if (path.includes('\0'))
    throw new InvalidArgumentError(
      `the output path ${JSON.stringify(path)} holds a NUL byte, which no file name can`,
      {
        details: { path },
      },
    );
  if (!path.isWellFormed() || (st === null && path.includes('\uFFFD')))
    throw new InvalidArgumentError(
      `the output path ${JSON.stringify(path)} holds U+FFFD, what a name that is not UTF-8 becomes as Node.js reads it, or half a surrogate pair, which becomes U+FFFD, so another file would be written: use a UTF-8 path`,
      { details: { path } },
    );
  // A user's file: a signal in the middle of the write leaves no temp file beside it.
  if (st === null || st.isFile() || st.isDirectory())
    return replaceFileAtomic(path, fill, { removedOnSignal: true });
  const end = st.isSymbolicLink() ? await linkTarget(path, (at) => DESCRIPTOR.test(at)) : path;
  const fd = DESCRIPTOR.exec(end)?.[1];
  const own = await makeTempDir('agentgate-out-');
  try {
    return await removedOnSignal(own, () => writeThrough(path, fd, join(own, 'out'), fill));
  } finally {
    await rm(own, { recursive: true, force: true });
  }
}

/** writeOutputFile into what is not a regular file: `fill` writes `temp`, which is then copied into `path` (or descriptor `fd`). */
async function writeThrough<T>(
  path: string,
  fd: string | undefined,
  temp: string,
  fill: (temp: string) => Promise<T>,
): Promise<T> {
  try {
    const result = await fill(temp);
    // Loaded here: the streams are some twenty of Node's modules that every other command's start
    // would load for nothing (naming fs's stream functions in an import loads them too).
    const [fs, { pipeline }] = await Promise.all([import('node:fs'), import('node:stream/promises')]);
    const into =
      fd === undefined
        ? fs.createWriteStream(path)
        : fs.createWriteStream('', { fd: Number(fd), autoClose: false });
    await pipeline(fs.createReadStream(temp), into);
    return result;
  } catch (cause) {
    if (cause instanceof AgentgateError) throw cause;
    throw new WriteFailedError(`could not write ${path} (${errnoOf(cause)}); check the path, then retry`, {
      cause,
      details: { path },
    });
  }
}

/**
 * A descriptor's name (`/dev/stdout` -> `/proc/self/fd/1`, `/dev/fd/2`): written to as it is, since
 * opening it again fails when it is a socket (ENXIO), as a parent's pipe often is.
 */
const DESCRIPTOR = /^\/(?:proc\/self|dev)\/fd\/(\d+)$/;

/** A `fill` that writes `data` to a new temp file. */
function contents(data: string | Buffer): (temp: string) => Promise<void> {
  return async (temp) => {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  };
}

/** writeOutputFile of a text or bytes. */
export async function writeOutputData(path: string, data: string | Buffer): Promise<void> {
  await writeOutputFile(path, contents(data));
}

/** Writes `data` to `path` atomically and durably (see the policy above). */
export async function writeFileAtomic(path: string, data: string | Buffer): Promise<void> {
  await replaceFileAtomic(path, contents(data));
}

/**
 * Replaces a person's own file (an agent's settings) atomically as writeFileAtomic does, but as
 * they keep it: through a symbolic link (the file it names is replaced, the link stays) and with
 * the file's permissions (a settings file of mode 0600 holds secrets). A new file gets 0644; a file
 * without its owner's write bit is refused (WRITE_FAILED), whoever runs it.
 */
export async function writeOwnFileAtomic(path: string, data: string | Buffer): Promise<void> {
  const target = await linkTarget(path);
  const st = await stat(target).catch(() => null);
  // A device or a FIFO is no settings file: a rename would put a plain file in its place (`/dev/null`).
  if (st !== null && !st.isFile())
    throw new WriteFailedError(`could not write ${path}: ${target} is not a regular file`, {
      details: { path, target },
    });
  // A rename would replace a file its owner made read-only (root would even write into it): refused.
  if (st !== null && (st.mode & 0o200) === 0)
    throw new WriteFailedError(
      `refusing to write ${path}: ${target === path ? 'it' : target} is read-only (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); make it writable (chmod u+w) and run the command again, or leave it as it is`,
      { details: { path, target, mode: st.mode & 0o7777 } },
    );
  const mode = st === null ? 0o644 : st.mode & 0o7777;
  await replaceFileAtomic(target, async (temp) => {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.chmod(mode); // the umask took bits from the mode open() was given
    } finally {
      await handle.close();
    }
  });
}

/**
 * The file a path names at the end of its symbolic links (followed one by one, so a dangling one
 * counts), or the first name on the way that `stop` accepts.
 */
async function linkTarget(path: string, stop: (at: string) => boolean = () => false): Promise<string> {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    if (stop(at)) return at;
    const st = await lstat(at).catch(() => null);
    if (st === null || !st.isSymbolicLink()) return at;
    at = resolve(dirname(at), await readlink(at));
  }
  throw new WriteFailedError(`could not write ${path}: too many symbolic links`, { details: { path } });
}

/** Writes a value as pretty JSON, atomically. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Flushes a file's data to disk. Throws on failure: unflushed data must not be reported as written. */
async function fsyncFile(path: string | Buffer): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes renames and creations in `dir` durable. Never throws: some filesystems refuse to open or
 * fsync directories, and what it protects has already happened.
 */
export async function fsyncDir(dir: string | Buffer): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Directory fsync is unsupported on some platforms; the rename itself is still atomic.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

export function errnoOf(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
}
