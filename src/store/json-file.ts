import { closeSync, constants, fstatSync, openSync, readFileSync, type Dirent, type Stats } from 'node:fs';
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type * as z from '../../types/zod.js';
import { InvalidIdError, StoreCorruptError } from '../errors.js';
import { errnoOf } from '../fs/atomic.js';

/**
 * Ids, paths and ISO times compared as git compares ref names, by code unit: `localeCompare` would
 * make one store's listing differ from one locale to another (Danish sorts "aa" after "z").
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * ISO times by the instants they name: a record may carry an offset (`2026-11-28T23:00:00+10:00` is
 * 13:00Z), so its text does not sort as its time does. Equal instants fall back to the text, so an
 * order never depends on which came first.
 */
export function byInstant(a: string, b: string): number {
  return Date.parse(a) - Date.parse(b) || byCodeUnit(a, b);
}

/** A store file that cannot be used, named so that the user can find and fix it. */
export function corruptFile(path: string, what: string, reason: string, cause?: unknown): StoreCorruptError {
  return new StoreCorruptError(
    `${path} is not a valid ${what}: ${reason}. Restore it from a backup or move it out of the store, then run "agentgate-snapshot verify --all"`,
    { cause, details: { path, reason } },
  );
}

/**
 * Reads and validates one JSON file of the store. A missing file is null; anything else that
 * stops it from being used (unreadable, truncated, wrong shape) is STORE_CORRUPT naming the file.
 */
export async function readJsonFile<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  what: string,
): Promise<z.output<S> | null> {
  const text = await readJsonText(path, what);
  return text === null ? null : parseJsonText(path, text, schema, what);
}

/**
 * Open flags of a store file: a FIFO planted in the store would block the open (and then the
 * read) forever; without blocking it opens at once, and the check on the descriptor refuses it.
 */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * One store file's text: null when missing, STORE_CORRUPT when unreadable or not a regular file
 * (a FIFO, a device such as /dev/zero that never ends, a socket), checked on the descriptor it is
 * read from, so nothing can be swapped in between. Every record of the store (snapshots, runs,
 * verdicts, anchors) is read here or in readJsonTextSync.
 */
export async function readJsonText(path: string, what: string): Promise<string | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (cause) {
    return missingOrThrow(path, what, cause);
  }
  try {
    assertRegular(path, what, await handle.stat());
    return await handle.readFile('utf8');
  } catch (cause) {
    throw unreadable(path, what, cause);
  } finally {
    await handle.close();
  }
}

/** readJsonText for a caller that reads many small files in a row (the thread pool costs more). */
export function readJsonTextSync(path: string, what: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (cause) {
    return missingOrThrow(path, what, cause);
  }
  try {
    assertRegular(path, what, fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } catch (cause) {
    throw unreadable(path, what, cause);
  } finally {
    closeSync(fd);
  }
}

function missingOrThrow(path: string, what: string, cause: unknown): null {
  if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw unreadable(path, what, cause);
}

function unreadable(path: string, what: string, cause: unknown): StoreCorruptError {
  if (cause instanceof StoreCorruptError) return cause;
  return corruptFile(path, what, `unreadable (${errnoOf(cause)})`, cause);
}

function assertRegular(path: string, what: string, st: Stats): void {
  if (st.isFile()) return;
  const kind = st.isFIFO()
    ? 'a FIFO'
    : st.isDirectory()
      ? 'a directory'
      : st.isSocket()
        ? 'a socket'
        : 'a device';
  throw corruptFile(path, what, `not a regular file (${kind})`);
}

/** A store file's text (read from `path`) parsed and validated; STORE_CORRUPT naming the file. */
export function parseJsonText<S extends z.ZodMiniType>(
  path: string,
  text: string,
  schema: S,
  what: string,
): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw corruptFile(
      path,
      what,
      `invalid JSON (${cause instanceof Error ? cause.message : String(cause)}; truncated?)`,
      cause,
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw corruptFile(path, what, describeIssues(parsed.error.issues), parsed.error);
  return parsed.data;
}

/** `key.path: problem` for each zod issue, joined; the root is called "(root)". */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * The `<name>.json` entries of a store directory, sorted; temp files (dot-prefixed) are skipped.
 * A missing directory is an empty store.
 */
export async function listJsonNames(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw corruptFile(dir, 'store directory', `unreadable (${errnoOf(cause)})`, cause);
  }
  // A directory is none of our files, whatever its name (a stray `x.json/`).
  return entries
    .filter((e) => !e.isDirectory() && e.name.endsWith('.json') && !e.name.startsWith('.'))
    .map((e) => e.name.slice(0, -'.json'.length))
    .sort();
}

/** Runs `fn` over `items` with at most `limit` in flight: a large store must not exhaust file handles. */
export async function mapLimit<T>(
  items: readonly T[],
  fn: (item: T) => Promise<void>,
  limit = 32,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Loads every `<name>.json` in `dir` with `load`. A file that fails to load becomes one
 * STORE_CORRUPT problem naming it and never stops the rest; problems are sorted by path.
 */
export async function loadAll<T>(
  dir: string,
  what: string,
  load: (name: string) => Promise<T | null>,
): Promise<{ items: T[]; problems: StoreCorruptError[] }> {
  const items: T[] = [];
  const problems: StoreCorruptError[] = [];
  await mapLimit(await listJsonNames(dir), async (name) => {
    try {
      const item = await load(name);
      if (item !== null) items.push(item);
    } catch (error) {
      problems.push(asStoreProblem(error, join(dir, `${name}.json`), what));
    }
  });
  problems.sort((a, b) => byCodeUnit(String(a.details.path), String(b.details.path)));
  return { items, problems };
}

/**
 * A listing's items only when every file loaded: else the first problem (by path) is thrown. For
 * the strict reads (`listStrict`, `listRunsStrict`) of commands whose output judges or publishes
 * the whole set: a verdict or run left out could turn a fail into a pass.
 */
export function wholeOrThrow<T>(items: T, problems: readonly StoreCorruptError[]): T {
  if (problems[0] !== undefined) throw problems[0];
  return items;
}

/** A load failure as a store problem: corrupt content, or a file name that is not a valid id. */
export function asStoreProblem(error: unknown, path: string, what: string): StoreCorruptError {
  if (error instanceof StoreCorruptError) return error;
  if (error instanceof InvalidIdError)
    return corruptFile(path, what, 'its file name is not a valid id', error);
  throw error;
}
