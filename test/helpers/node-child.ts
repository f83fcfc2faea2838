/**
 * Runs TypeScript helper scripts as real child processes (node --import tsx), for tests that need
 * several processes contending for the same files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Starts `test/helpers/<script>` in its own node process; stdout and stderr are piped. */
export function spawnTs(script: string, args: string[]): ChildProcess {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  return spawn(process.execPath, ['--import', 'tsx', path, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Resolves when the child exits, with everything it printed. */
export function finished(child: ChildProcess): Promise<ChildResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Resolves once the child has printed `marker` on stdout (rejects if it exits first). */
export function printed(child: ChildProcess, marker: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(marker)) resolve();
    });
    child.on('close', (code) =>
      reject(new Error(`child exited (${code}) before printing ${marker}: ${stderr}`)),
    );
  });
}

/** The pid of a process that has already exited: a provably dead lock owner. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid as number;
}

/** Polls until `check` holds (bounded by the test timeout, not by wall-clock assertions). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}
