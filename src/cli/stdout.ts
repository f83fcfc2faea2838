/**
 * Writing to stdout. Making process.stdout's stream costs about a tenth of a bare Node start-up
 * (for a pipe it is a socket: net, streams and their kin), so the CLI's own answers go out with
 * writeStdout, which writes the descriptor directly while nothing has made the stream. Whatever
 * does make it (a gate's echo, a streamed patch, serve) gets onStdoutError at once.
 */
import { writeSync } from 'node:fs';
import { isClosedPipe } from './output.js';
import { PROGRAM } from './spec.js';

/** Whether a failed write to stdout fails the command: an agent's hook exits 0 whatever happens. */
let failsCommand = true;

/** Without a listener, a failed write to stdout crashes the process with a stack trace. */
export function onStdoutError(error: NodeJS.ErrnoException): void {
  if (isClosedPipe(error)) return;
  process.stderr.write(
    `${PROGRAM}: WRITE_FAILED: could not write the output (${error.code ?? error.message})\n`,
  );
  if (failsCommand) process.exitCode = 1;
}

/** process.stdout once something made it, else null. */
let stream: NodeJS.WriteStream | null = null;

/**
 * Puts onStdoutError on process.stdout when the stream is made, by whoever makes it. Node defines
 * process.stdout as a configurable getter that makes the stream on first use; this wraps it.
 * `fails` false: a failed write is said on stderr but leaves the exit status alone (an agent's hook).
 */
export function listenWhenStdoutIsMade(fails = true): void {
  failsCommand = fails;
  const made = Object.getOwnPropertyDescriptor(process, 'stdout');
  const get = made?.get;
  if (get === undefined || made?.configurable !== true) {
    process.stdout.on('error', onStdoutError);
    return;
  }
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: made.enumerable ?? true,
    get(): NodeJS.WriteStream {
      if (stream === null) {
        stream = get.call(process) as NodeJS.WriteStream;
        stream.on('error', onStdoutError);
      }
      return stream;
    },
  });
}

/**
 * `text` to stdout, in order with everything written before. While no stream exists it goes to the
 * descriptor directly; a closed pipe is ignored, as onStdoutError does, and a descriptor that would
 * block (a non-blocking pipe that is full) gets the rest through the stream, as does every later write.
 */
export function writeStdout(text: string): void {
  if (stream !== null) {
    stream.write(text);
    return;
  }
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (error) {
    if (isClosedPipe(error)) return;
    process.stdout.write(bytes.subarray(done));
  }
}
