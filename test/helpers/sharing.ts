/** Machines for the sharing tests: clones of one bare repository, each with its own home. */
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { Sharing } from '../../src/sharing/sharing.js';
import { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import { runCli } from './cli.js';
import { commitAll, git, tempDir, writeFiles } from './repo.js';

export interface Machine {
  name: string;
  dir: string;
  home: string;
  artifacts: string;
  snap: Snapshotter;
  share: Sharing;
}

export interface World {
  root: string;
  origin: string;
  machine(name: string): Machine;
  cleanup(): void;
}

/** A bare `origin` with one commit on main; `machine(name)` clones it with a home of its own. */
export function world(): World {
  const root = realpathSync(tempDir('agentgate-sharing-'));
  const origin = join(root, 'origin.git');
  git(root, ['init', '-q', '--bare', '-b', 'main', origin]);
  const seed = join(root, 'seed');
  mkdirSync(seed);
  git(seed, ['init', '-q', '-b', 'main']);
  writeFiles(seed, { 'README.md': 'hello\n', 'src/app.txt': 'one\ntwo\nthree\n' });
  commitAll(seed, 'initial');
  git(seed, ['push', '-q', origin, 'main']);
  rmSync(seed, { recursive: true, force: true });
  return {
    root,
    origin,
    machine(name: string): Machine {
      const dir = join(root, name);
      git(root, ['clone', '-q', origin, dir]);
      git(dir, ['config', 'commit.gpgsign', 'false']);
      const home = join(root, `${name}-home`);
      const artifacts = join(home, 'artifacts');
      const opts = {
        home,
        artifactsDir: artifacts,
        identity: DEFAULT_IDENTITY,
        gitTimeoutMs: 60_000,
        lockTimeoutMs: 10_000,
      };
      return {
        name,
        dir,
        home,
        artifacts,
        snap: new Snapshotter({ ...opts, onDirty: 'wip-commit' }),
        share: new Sharing(opts),
      };
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Runs `count` iterations of run `runId` on machine `m`, starting at iteration `from`; each changes files. */
export async function runIterations(m: Machine, runId: string, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++) {
    const before = await m.snap.captureBeforeState(m.dir, { runId });
    writeFiles(m.dir, {
      [`work/${runId}-${i}.txt`]: `iteration ${i}\n`,
      'src/app.txt': `one\ntwo\nthree\n${runId} ${i}\n`,
    });
    await m.snap.captureAfterState(m.dir, before, {
      runId,
      iteration: i,
      taskPrompt: `Task ${i}: ${'x'.repeat(150)} end`,
      gatePlanSource: `npm test # ${i}`,
    });
  }
}

/** Awaits a promise that must fail with `code`; returns the error for further checks. */
export async function failsWith(
  promise: Promise<unknown>,
  code: string,
): Promise<{ code: string; details: Record<string, unknown> }> {
  const error = await promise.then(
    () => {
      throw new Error(`expected ${code}, but it succeeded`);
    },
    (e: unknown) => e as { code: string; details: Record<string, unknown> },
  );
  if (error.code !== code)
    throw new Error(
      `expected ${code}, got ${String(error.code)}: ${String((error as unknown as Error).message)}`,
    );
  return error;
}

/** Writes a record commit on the remote by hand (what a hostile or careless publisher can do). */
export function forge(
  repo: string,
  ref: string,
  parent: string,
  recordJson: string,
  extra: Record<string, string> = {},
): string {
  const entries = Object.entries({ 'record.json': recordJson, ...extra }).map(([name, content]) => {
    const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: content });
    return `100644 blob ${blob}\t${name}`;
  });
  const tree = git(repo, ['mktree'], { input: `${entries.join('\n')}\n` });
  const commit = git(repo, ['commit-tree', tree, '-p', parent, '-m', 'forged']);
  git(repo, ['update-ref', ref, commit]);
  return commit;
}

export function recordOf(
  repo: string,
  ref: string,
): Record<string, unknown> & { snapshot: Record<string, unknown> } {
  return JSON.parse(git(repo, ['show', `${ref}:record.json`])) as Record<string, unknown> & {
    snapshot: Record<string, unknown>;
  };
}

/** The built CLI on machine `m`: its repository and home, artifacts beside the home, `env` added. */
export function machineCli(m: Machine, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(['-C', m.dir, '--home', m.home, ...args], { env: { AGENTGATE_ARTIFACTS_DIR: '', ...env } });
}

/** `machineCli` with --json, which must exit 0: its JSON document. */
export function machineOk(m: Machine, args: string[]): unknown {
  const res = machineCli(m, [...args, '--json']);
  expect(res.status, `${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(0);
  return res.json();
}
