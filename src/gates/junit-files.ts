import { constants } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TextDecoder } from 'node:util';
import type { TestCounts } from '../../types/gate.js';

/** Larger than any real JUnit report (100,000 test cases take about 15 MB); bigger is refused, not read. */
const MAX_JUNIT_BYTES = 512 * 1024 * 1024;

/** A file written this long before the command started still counts (coarse file-system clocks). */
const MTIME_SLACK_MS = 2_000;

/** A file's version: device, inode, size and times to the nanosecond. Any write changes it. */
function versionOf(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Paths of JUnit reports inside the workspace `topLevel`, relative to it ('/'-separated, as git
 * prints them): `junit` as given (relative to the top level, or absolute), through the real paths
 * of their directories, so that a report named through a symbolic link (a workspace reached by a
 * link, as macOS's /tmp is; a linked directory inside it) is the file git status lists.
 */
export async function reportPaths(topLevel: string, junit: readonly string[]): Promise<string[]> {
  const top = await realpath(topLevel).catch(() => topLevel);
  const paths = await Promise.all(
    junit.map(async (f) => {
      const path = relative(top, await realDirectories(resolve(topLevel, f)));
      return path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)
        ? []
        : [path.split(sep).join('/')];
    }),
  );
  return paths.flat();
}

/** `path` with its directories' symbolic links resolved, as far up as they exist (it itself may not yet). */
async function realDirectories(path: string): Promise<string> {
  const tail = [basename(path)];
  for (let head = dirname(path); ; head = dirname(head)) {
    const real = await realpath(head).catch(() => null);
    if (real !== null) return join(real, ...tail);
    if (dirname(head) === head) return path;
    tail.unshift(basename(head));
  }
}

/** The versions of the reports that exist before the check runs (by real path): what it must change. */
export async function reportVersions(files: readonly string[], cwd: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of files) {
    const path = resolve(cwd, file);
    const info = await stat(path, { bigint: true }).catch(() => null);
    if (info?.isFile() === true) out.set(path, versionOf(info));
  }
  return out;
}

/**
 * Reads and sums the JUnit files, relative to `cwd`; a file named twice (or by two names) counts
 * once. A missing, stale (older than `notBefore`, or the very version `earlier` saw: left by an
 * earlier run), oversized, unreadable or malformed file gives the problem instead, one line naming
 * the file as given.
 */
export async function readJunitFiles(
  files: readonly string[],
  cwd: string,
  notBefore: number | null,
  earlier: ReadonlyMap<string, string> = new Map(),
): Promise<{ counts: TestCounts } | { problem: string }> {
  // The XML parser is loaded only by a gate that reads reports, not by every gate call.
  const { addCounts, emptyCounts, JunitCounter, JunitParseError } = await import('./junit.js');
  let counts = emptyCounts();
  const read = new Set<string>();
  for (const file of files) {
    const shown = JSON.stringify(file);
    const path = resolve(cwd, file);
    // Opened once, without waiting (a FIFO swapped in would wait for a writer), and read through
    // that descriptor up to the size it had then: a process outliving the check cannot swap the
    // file or make the read go on for ever by appending.
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch(
      (e: NodeJS.ErrnoException) => e,
    );
    if (handle instanceof Error) {
      return {
        problem:
          handle.code === 'ENOENT'
            ? `${shown} was not written`
            : `${shown} cannot be read (${handle.code ?? handle.message})`,
      };
    }
    try {
      const info = await handle.stat({ bigint: true });
      if (!info.isFile()) return { problem: `${shown} is not a file` };
      const stale =
        (notBefore !== null && Number(info.mtimeMs) < notBefore - MTIME_SLACK_MS) ||
        earlier.get(path) === versionOf(info);
      if (stale) return { problem: `${shown} is older than this run (left by an earlier one?)` };
      const identity = `${info.dev}:${info.ino}`;
      if (read.has(identity)) continue;
      read.add(identity);
      if (info.size > MAX_JUNIT_BYTES)
        return { problem: `${shown} is ${info.size} bytes, more than ${MAX_JUNIT_BYTES}` };
      // Streamed: memory stays flat whatever the file's size (the parser keeps counts, not a tree).
      // 64 KiB chunks: with 1 MiB ones the garbage between collections took 146 MiB on 500 MB, 93 with these.
      const counter = new JunitCounter();
      let decoder: TextDecoder | null = null;
      const chunks =
        info.size === 0n
          ? []
          : handle.createReadStream({ highWaterMark: 1 << 16, end: Number(info.size) - 1, autoClose: false });
      for await (const chunk of chunks as AsyncIterable<Buffer>) {
        decoder ??= new TextDecoder(xmlEncoding(chunk));
        counter.write(decoder.decode(chunk, { stream: true }));
      }
      counter.write(decoder?.decode() ?? '');
      counts = addCounts(counts, counter.end());
    } catch (error) {
      if (error instanceof JunitParseError) return { problem: `${shown}: ${error.message}` };
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== undefined) return { problem: `${shown} cannot be read (${code})` };
      throw error;
    } finally {
      await handle.close();
    }
  }
  return { counts };
}

/**
 * The encoding of an XML document from its first bytes, as XML 1.0 (appendix F) finds it: a byte
 * order mark, UTF-16 without one (`<?` as two-byte units), else the declaration's `encoding` when
 * this Node.js decodes it (ISO-8859-1, windows-1252...), else UTF-8. Every XML processor reads
 * UTF-16 (a report written by PowerShell's Out-File, say); taken as UTF-8 it was "not well-formed".
 */
function xmlEncoding(head: Buffer): string {
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0x00 && head[1] === 0x3c && head[2] === 0x00 && head[3] === 0x3f) return 'utf-16be';
  if (head[0] === 0x3c && head[1] === 0x00 && head[2] === 0x3f && head[3] === 0x00) return 'utf-16le';
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(
    head.subarray(0, 1024).toString('latin1'),
  )?.[1];
  if (declared === undefined) return 'utf-8';
  let encoding: string;
  try {
    encoding = new TextDecoder(declared).encoding;
  } catch {
    return 'utf-8';
  }
  // Declared UTF-16 (by any of its labels: UCS-2, unicode, ISO-10646-UCS-2...) in bytes that are
  // not is a contradiction: they are read as UTF-8.
  return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
}
