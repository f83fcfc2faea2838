/**
 * A gate's log artifact: the command's whole output written to a temp file beside its final name
 * while it streams, hashed on the way (never held in memory), then renamed to
 * `gate-<name>-<attempt>.log` once the store has numbered the attempt.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConcurrentUpdateError, WriteFailedError } from '../errors.js';
import { errnoOf } from '../fs/atomic.js';
import { sweepTempFiles } from '../fs/sweep.js';
import { randomHex } from '../fs/random.js';

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
 * so a killed gate's half-written log is swept by the next call.
 */
export async function openLogSink(dir: string, name: string): Promise<LogSink> {
  await mkdir(dir, { recursive: true });
  await sweepTempFiles(dir);
  const temp = join(dir, `.gate-${name}.${process.pid}.${randomHex(6)}.tmp`);
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const written = pipeline(counter, createWriteStream(temp, { flags: 'wx', mode: 0o644 })).catch(
    (cause: unknown) => cause,
  );
  return {
    stream: counter,
    async finish() {
      counter.end();
      const failure = await written;
      if (failure !== undefined) throw writeFailed(temp, failure);
      await syncFile(temp);
      return { sha256: hash.digest('hex'), bytes };
    },
    async discard() {
      if (!counter.writableEnded) counter.end();
      await written;
      await rm(temp, { force: true });
    },
    async moveTo(path) {
      await mkdir(dirname(path), { recursive: true });
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
