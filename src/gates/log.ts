/**
 * A gate's log artifact: the command's whole output written to a temp file beside its final name
 * while it streams, hashed on the way (never held in memory), then renamed to
 * `gate-<name>-<attempt>.log` once the store has numbered the attempt.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { GateResult } from '../../types/gate.js';
import { ConcurrentUpdateError, WriteFailedError } from '../errors.js';
import { errnoOf } from '../fs/atomic.js';
import { sweepTempFiles } from '../fs/sweep.js';
import { randomHex } from '../fs/random.js';
import { gateLogPath, receivedGateLogPath } from '../store/paths.js';
import { makeDirs } from '../fs/make-dirs.js';

export interface LogDigest {
  sha256: string;
  bytes: number;
}

export interface LogSink {
  /** Where the command's output goes. */
  stream: Writable;
  /** Ends the stream, waits for the file to be on disk, and gives its digest. */
  finish(): Promise<LogDigest>;
  /** Moves the finished log to its final name. */
  moveTo(path: string): Promise<void>;
  /** Ends the stream and removes the temp log (the call failed before a verdict was stored). */
  discard(): Promise<void>;
}

/**
 * Opens a temp log in `dir` named as atomic.ts names its temp files (`.<name>.<pid>.<hex>.tmp`),
 * so a killed gate's half-written log is swept by the next call. `remakeDir` makes `dir` again (as
 * the caller first made it) when the log was removed while it was written: see keptAt.
 */
export async function openLogSink(
  dir: string,
  name: string,
  remakeDir: () => Promise<unknown> = () => makeDirs(dir),
): Promise<LogSink> {
  await makeDirs(dir);
  await sweepTempFiles(dir);
  const tempName = () => join(dir, `.gate-${name}.${process.pid}.${randomHex(6)}.tmp`);
  let temp = tempName();
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const writer = await open(temp, 'wx', 0o644);
  // A second descriptor, to read back what was written should the file be removed meanwhile (keptAt).
  const reader = await open(temp, 'r').catch(async (cause: unknown) => {
    await writer.close();
    throw writeFailed(temp, cause);
  });
  let readerOpen = true;
  const closeReader = async () => {
    if (readerOpen) await reader.close();
    readerOpen = false;
  };
  // The stream closes the writer when it ends.
  const written = pipeline(counter, writer.createWriteStream()).catch((cause: unknown) => cause);
  return {
    stream: counter,
    async finish() {
      counter.end();
      const failure = await written;
      try {
        if (failure !== undefined) throw writeFailed(temp, failure);
        temp = await keptAt(reader, temp, tempName(), remakeDir);
      } finally {
        await closeReader();
      }
      return { sha256: hash.digest('hex'), bytes };
    },
    async discard() {
      if (!counter.writableEnded) counter.end();
      await written;
      await closeReader();
      await rm(temp, { force: true });
    },
    async moveTo(path) {
      await makeDirs(dirname(path));
      // Never over another attempt's log: the caller numbers attempts past every log there is.
      if (
        await lstat(path).then(
          () => true,
          () => false,
        )
      )
        throw new ConcurrentUpdateError(
          `a gate log is already at ${path}; it is never replaced. Move it away if it is not an attempt's log, then run the gate again`,
          { details: { path } },
        );
      await rename(temp, path).catch((cause: unknown) => {
        throw writeFailed(path, cause);
      });
    },
  };
}

/** Copies a log the caller kept (`gate record --log FILE`) into a sink, hashing it as it streams. */
export async function copyIntoSink(file: string, sink: LogSink): Promise<LogDigest> {
  await pipeline(createReadStream(file), sink.stream, { end: false });
  return sink.finish();
}

/** The sha256 and size of a file, streamed. */
export async function digestFile(path: string): Promise<LogDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * Where the log is now, synced: `temp`, else (the check removed it, or put another file in its
 * place: `git clean -fdx` of an artifacts directory inside the workspace) a new temp file `again` in
 * the directory made anew, holding the bytes that `reader`, opened on the log at the start, reads.
 */
async function keptAt(
  reader: FileHandle,
  temp: string,
  again: string,
  remakeDir: () => Promise<unknown>,
): Promise<string> {
  const [mine, there] = await Promise.all([reader.stat(), lstat(temp).catch(() => null)]);
  if (there !== null && there.dev === mine.dev && there.ino === mine.ino) {
    await syncFile(temp);
    return temp;
  }
  if (there !== null) await rm(temp, { force: true });
  try {
    await remakeDir();
    await makeDirs(dirname(again));
    const copy = await open(again, 'wx', 0o644);
    try {
      // Plain reads and writes: a FileHandle's stream would keep it from closing.
      const buffer = Buffer.alloc(1 << 16);
      for (let at = 0; ;) {
        const { bytesRead } = await reader.read(buffer, 0, buffer.length, at);
        if (bytesRead === 0) break;
        for (let done = 0; done < bytesRead;)
          done += (await copy.write(buffer, done, bytesRead - done)).bytesWritten;
        at += bytesRead;
      }
      await copy.sync();
    } finally {
      await copy.close();
    }
  } catch (cause) {
    await rm(again, { force: true }).catch(() => undefined);
    throw writeFailed(again, cause);
  }
  return again;
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function writeFailed(path: string, cause: unknown): WriteFailedError {
  return new WriteFailedError(`could not write the gate log ${path} (${errnoOf(cause)}); check free space`, {
    cause,
    details: { path },
  });
}

/**
 * The verdict's log on this machine: its name under this artifacts directory (which wins over a
 * recorded path, as for a patch: the home may have moved or been copied), else its recorded path. A received verdict's log is the copy fetched with it, whose name
 * holds its id; the file under its attempt number alone is this machine's own attempt's log (a
 * matrix numbers attempts apart), never the received verdict's. Else why there is none here.
 */
export async function logHere(
  result: GateResult,
  artifactsDir: string,
): Promise<{ path: string } | { missing: string }> {
  if (result.log === null || result.log.path === null)
    return { missing: 'log not on this machine (received without its text)' };
  const received = result.receivedAt !== undefined;
  const here = received
    ? receivedGateLogPath(artifactsDir, result)
    : gateLogPath(artifactsDir, result.runId, result.iteration, result.name, result.attempt);
  for (const path of new Set([here, result.log.path])) {
    if (
      await stat(path).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return { path };
  }
  return {
    missing: received
      ? `the log fetched with this verdict is gone (${result.log.path} was deleted or moved, and ${here} is not there either)`
      : `log not on this machine (${result.log.path} was deleted or moved, and ${here} is not there either)`,
  };
}

/** The verdict with its log's path as this machine has it (logHere), for what is printed. */
export async function withLocalLog<T extends GateResult>(result: T, artifactsDir: string): Promise<T> {
  if (result.log === null || result.log.path === null) return result;
  const where = await logHere(result, artifactsDir);
  return 'path' in where && where.path !== result.log.path
    ? { ...result, log: { ...result.log, path: where.path } }
    : result;
}
