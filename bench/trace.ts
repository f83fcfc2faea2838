// Where the time goes: a `git` wrapper put first on PATH records every git process the library
// or the CLI starts (arguments, start and duration). Used for one untimed profiling iteration only,
// never for the timed repetitions (the wrapper itself costs a shell and two `date` processes).
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface GitCall {
  /** Start, in ms since the epoch. */
  startMs: number;
  ms: number;
  /** The git subcommand (first argument that is not an option). */
  command: string;
  args: string;
}

export interface Tracer {
  /** Directory to put first on PATH. */
  binDir: string;
  /** Calls recorded since the last `reset`. */
  read(): Promise<GitCall[]>;
  reset(): Promise<void>;
}

/** Installs the wrapper in `dir`. The log path is baked into the script: the library passes only PATH and HOME through. */
export async function createTracer(dir: string): Promise<Tracer> {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const binDir = join(dir, 'bin');
  const logFile = join(dir, 'git-calls.log');
  await mkdir(binDir, { recursive: true });
  const script = [
    '#!/bin/sh',
    's=$(date +%s%N)',
    `"${realGit}" "$@"`,
    'rc=$?',
    'e=$(date +%s%N)',
    // One printf per call: an append this small is atomic, so concurrent calls do not interleave.
    `printf '%s\\t%s\\t%s\\n' "$s" "$((e - s))" "$*" >>"${logFile}"`,
    'exit $rc',
    '',
  ].join('\n');
  await writeFile(join(binDir, 'git'), script);
  await chmod(join(binDir, 'git'), 0o755);
  return {
    binDir,
    reset: () => rm(logFile, { force: true }),
    async read() {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [start, ns, rest] = line.split('\t');
          const args = (rest ?? '').split(' ').filter(Boolean);
          return {
            startMs: Number(start) / 1e6,
            ms: Number(ns) / 1e6,
            command: subcommand(args),
            args: args.join(' '),
          };
        })
        .filter((c) => Number.isFinite(c.startMs) && Number.isFinite(c.ms));
    },
  };
}

/** `-c k=v --git-dir=x add -A` -> `add`. */
export function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-c' || a === '-C') {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return a;
  }
  return '?';
}

/** Runs `fn` with the tracer first on PATH (the library reads PATH when it spawns). */
export async function withTracer<T>(tracer: Tracer, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = `${tracer.binDir}:${saved ?? ''}`;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}
