/**
 * Writing to stdout. process.stdout's stream costs about a tenth of a bare Node start-up
 * (measured with --version), so short answers (the version, an agent hook's reply) go out with
 * writeShort and never make it; everything else uses the stream, with onStdoutError listening.
 */
import { writeSync } from 'node:fs';
import { isClosedPipe } from './output.js';
import { PROGRAM } from './spec.js';

/** Without a listener, a failed write to stdout crashes the process with a stack trace. */
export function onStdoutError(error: NodeJS.ErrnoException): void {
  if (isClosedPipe(error)) return;
  process.stderr.write(
    `${PROGRAM}: WRITE_FAILED: could not write the output (${error.code ?? error.message})\n`,
  );
  process.exitCode = 1;
}

/** process.stdout, with onStdoutError listening (made here if nothing made it yet). */
export function stdoutStream(): NodeJS.WriteStream {
  if (process.stdout.listenerCount('error') === 0) process.stdout.on('error', onStdoutError);
  return process.stdout;
}

/**
 * A few bytes to stdout without making process.stdout. A closed pipe is ignored, as onStdoutError
 * does; a descriptor that would block (a non-blocking pipe that is full) gets the rest through the
 * stream.
 */
export function writeShort(text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (error) {
    if (isClosedPipe(error)) return;
    stdoutStream().write(bytes.subarray(done));
  }
}
