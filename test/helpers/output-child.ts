/**
 * Child process for the interrupted `-o FILE` tests.
 *   hold FILE  - starts writeOutputFile(FILE), writes part of it, prints "writing" and waits, in
 *                the middle of the write, until a signal ends it.
 */
import { writeFile } from 'node:fs/promises';
import { writeOutputFile } from '../../src/fs/atomic.js';

const [mode, file] = process.argv.slice(2);
if (mode !== 'hold' || file === undefined) throw new Error('usage: output-child.ts hold FILE');

await writeOutputFile(file, async (temp) => {
  await writeFile(temp, 'half a report');
  process.stdout.write('writing\n');
  // A pending timer keeps the process in the middle of the write until a signal ends it.
  await new Promise(() => setInterval(() => undefined, 60_000));
});
