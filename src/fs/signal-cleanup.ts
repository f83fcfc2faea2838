/**
 * Temporary files and directories of a write the user asked for (`-o FILE`), removed when a signal
 * ends the process in the middle of it: Ctrl-C, or a cancelled CI job (SIGINT, then SIGTERM), must
 * not leave `.report.html.<pid>.<hex>.tmp` beside the user's file or a directory in TMPDIR. The
 * file itself is never half-written (atomic.ts). Our own files' temps are swept instead (sweep.ts).
 */
import { rmSync } from 'node:fs';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const pending = new Set<string>();

/** Runs `work` with `path` removed (recursively, if a directory) should one of SIGNALS come first. */
export async function removedOnSignal<T>(path: string, work: () => Promise<T>): Promise<T> {
  if (pending.size === 0) for (const signal of SIGNALS) process.on(signal, onSignal);
  pending.add(path);
  try {
    return await work();
  } finally {
    pending.delete(path);
    if (pending.size === 0) stopListening();
  }
}

function onSignal(signal: NodeJS.Signals): void {
  for (const path of pending) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Best effort: the process is ending either way.
    }
  }
  pending.clear();
  stopListening();
  // Our listener kept the signal from ending the process: with no other listener (a gate passing it
  // on decides for itself), it is raised again and ends it as it would have (128 + its number).
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function stopListening(): void {
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}
