/**
 * Child process for lock tests.
 *   append LOCK LOG NAME ROUNDS GO  - prints "ready", waits for file GO, then ROUNDS times takes the
 *                                     lock and appends "start"/"end" lines around a short pause.
 *   hold LOCK                       - takes the lock, prints "held", and keeps it until killed.
 */
import { existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { withLock } from '../../src/fs/lock.js';

const [mode, lockPath, ...rest] = process.argv.slice(2);
if (lockPath === undefined) throw new Error('usage: lock-child.ts append|hold LOCK ...');

if (mode === 'hold') {
  await withLock(lockPath, { timeoutMs: 60_000, purpose: 'test holder' }, async () => {
    process.stdout.write('held\n');
    // A pending timer keeps the process (and so the lock) alive until it is killed.
    await new Promise(() => setInterval(() => undefined, 60_000));
  });
} else {
  const [log, name, rounds, go] = rest as [string, string, string, string];
  process.stdout.write('ready\n');
  while (!existsSync(go)) await sleep(5);
  for (let i = 0; i < Number(rounds); i++) {
    await withLock(lockPath, { timeoutMs: 60_000, purpose: `test ${name}` }, async (lock) => {
      await appendFile(log, `start ${name} ${i}\n`);
      if (lock.recovered) await appendFile(log, `recovered ${name} ${lock.recovered.pid}\n`);
      await sleep(3);
      await appendFile(log, `end ${name} ${i}\n`);
    });
  }
}
