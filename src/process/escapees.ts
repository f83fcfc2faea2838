/**
 * Processes a gate's check started that left its process group (`setsid`, a daemon's double fork):
 * the group kill at the check's end does not reach them, and one that edits the workspace after
 * the second look at it would change what the verdict names unseen. Each carries, as every
 * process the check starts does unless it clears its environment, the variable MARK_VARIABLE with
 * this check's own value (as a CI runner tracks a job's processes); at the check's end every
 * process of ours that carries it is ended. Linux (`/proc`) only; elsewhere none is found.
 */
import { readdir, readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';

/** The variable that marks the processes of one check (its value is that check's). */
export const MARK_VARIABLE = 'AGENTGATE_CHECK_MARK';

/** A fresh mark for one check's processes. */
export function newMark(): string {
  return randomBytes(8).toString('hex');
}

/** Rounds of looking again: a marked process may fork while the one before it is ended. */
const MAX_ROUNDS = 10;

/** Ends (SIGKILL) every process that carries `mark`, until none is left or MAX_ROUNDS; returns how many. */
export async function endMarked(mark: string): Promise<number> {
  let ended = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const marked = await markedProcesses(mark);
    if (marked.length === 0) break;
    for (const pid of marked) {
      try {
        process.kill(pid, 'SIGKILL');
        ended++;
      } catch {
        // Gone already, or not ours to end.
      }
    }
  }
  return ended;
}

/** The live processes whose environment holds MARK_VARIABLE=`mark` (those we may read: our own user's). */
async function markedProcesses(mark: string): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const pids = entries.filter((e) => /^[0-9]+$/.test(e) && Number(e) !== process.pid);
  const needle = Buffer.from(`\0${MARK_VARIABLE}=${mark}\0`);
  const found: number[] = [];
  // A few files open at a time, whatever the number of processes (no EMFILE to miss one by).
  for (let i = 0; i < pids.length; i += BATCH) {
    const batch = await Promise.all(pids.slice(i, i + BATCH).map((pid) => carries(pid, needle)));
    found.push(...batch.filter((pid): pid is number => pid !== null));
  }
  return found;
}

const BATCH = 64;

/** `pid` when its environment holds `needle` (NUL-delimited), else null. */
async function carries(pid: string, needle: Buffer): Promise<number | null> {
  // A zombie's environment reads empty, and one we may not read throws: neither is counted.
  const environ = await readFile(`/proc/${pid}/environ`).catch(() => null);
  if (environ === null) return null;
  return Buffer.concat([NUL, environ, NUL]).includes(needle) ? Number(pid) : null;
}

const NUL = Buffer.from([0]);
