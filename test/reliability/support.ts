/**
 * Shared machinery of the reliability suites: how hard to push (AGENTGATE_STRESS), a seeded random
 * source, the CLI as an asynchronous (and killable) child process, large generated repositories,
 * and the oracles that judge what a call left behind (content sets, store files, git fsck).
 */
import { finished } from '../helpers/node-child.js';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as z from 'zod';
import { RunRecord } from '../../types/run.js';
import { IsoDate, Snapshot } from '../../types/snapshot.js';
import { CLI } from '../helpers/cli.js';
import { git, oracleEnv } from '../helpers/repo.js';

// ---- sizing and reporting ----

export type StressLevel = 'ci' | 'full';

/** `full` runs the issue's numbers; `ci` (and unset) a lighter pass that keeps CI time reasonable. */
export function stressLevel(): StressLevel {
  return process.env.AGENTGATE_STRESS === 'full' ? 'full' : 'ci';
}

export function byStress<T>(ci: T, full: T): T {
  return stressLevel() === 'full' ? full : ci;
}

/** Seed of this run's random choices: AGENTGATE_STRESS_SEED reproduces a failing run. */
export const SEED = Number(process.env.AGENTGATE_STRESS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: small, fast, and good enough to spread kill times and pick files. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Prints a suite's figures and, when AGENTGATE_RELIABILITY_REPORT names a file, appends them to it as one JSON line. */
export function report(suite: string, figures: object): void {
  const line = { suite, stress: stressLevel(), seed: SEED, ...figures };
  console.log(`[reliability] ${JSON.stringify(line)}`);
  const file = process.env.AGENTGATE_RELIABILITY_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
}

// ---- the CLI as a child process ----

export interface CliRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: '1', ...env };
}

/** Runs the built CLI without blocking the test process, so that several can run at once. */
export function cliAsync(args: string[], opts: CliOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    env: cliEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child);
}

async function collect(child: ReturnType<typeof spawn>): Promise<CliRun> {
  const { code, signal, stdout, stderr } = await finished(child);
  return { status: code, signal, stdout, stderr };
}

/** How a kill lands: on the whole process group (node and its git children), or on node alone. */
export type KillMode = 'group' | 'leader';

export interface KillOutcome extends CliRun {
  killed: boolean;
}

/**
 * Starts the CLI in a process group of its own and SIGKILLs it after `delayMs` (unless it finished
 * first). `leader` kills node only: its git children live on as orphans; we wait until the whole
 * group is gone, so that the next call meets what a finished orphan leaves, not a running one.
 */
export async function runAndKill(
  args: string[],
  delayMs: number,
  mode: KillMode,
  opts: CliOptions = {},
): Promise<KillOutcome> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    env: cliEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const done = collect(child);
  const pid = child.pid as number;
  let exited = false;
  void done.then(() => (exited = true));
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  let killed = false;
  if (!exited) {
    try {
      process.kill(mode === 'group' ? -pid : pid, 'SIGKILL');
      killed = true;
    } catch {
      // It exited in between.
    }
  }
  const result = await done;
  await groupGone(pid);
  return { ...result, killed: killed && result.signal === 'SIGKILL' };
}

async function groupGone(pgid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The parsed `--json` output of a call that must have succeeded. */
export function okJson<T = Record<string, unknown>>(run: CliRun, what: string): T {
  if (run.status !== 0)
    throw new Error(
      `${what} failed (status ${run.status}, signal ${run.signal}):\n${run.stdout}\n${run.stderr}`,
    );
  return JSON.parse(run.stdout) as T;
}

// ---- generated workspaces ----

/** File contents of a workspace by path: text, or bytes for binaries. */
export type Contents = Map<string, Buffer>;

/** Deterministic file content: `version` changes every line, so a half-written file matches no version. */
export function textContent(path: string, version: number, lines: number): Buffer {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${path} v${version} line ${i} ${'abcdefghij'.repeat(6)}`);
  return Buffer.from(`${out.join('\n')}\n`);
}

export function binaryContent(path: string, version: number, bytes: number): Buffer {
  const buf = Buffer.alloc(bytes);
  const next = rng(createHash('sha1').update(`${path}:${version}`).digest().readUInt32LE(0));
  for (let i = 0; i < bytes; i++) buf[i] = Math.floor(next() * 256);
  return buf;
}

export interface LargeRepoOptions {
  files: number;
  /** Lines per text file (about 80 bytes each). */
  lines: number;
  binaries: number;
  binaryBytes: number;
}

/** Writes a repository of `files` text files (plus some binaries) in nested directories and commits it with the oracle git. */
export function makeLargeRepo(dir: string, opts: LargeRepoOptions): Contents {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  const contents: Contents = new Map();
  for (let i = 0; i < opts.files; i++)
    contents.set(`src/d${i % 40}/e${i % 7}/file-${i}.txt`, textContent(`f${i}`, 0, opts.lines));
  for (let i = 0; i < opts.binaries; i++)
    contents.set(`assets/blob-${i}.bin`, binaryContent(`b${i}`, 0, opts.binaryBytes));
  contents.set('.gitignore', Buffer.from('ignored/\n'));
  writeContents(dir, contents);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--no-verify', '-m', 'generated']);
  return contents;
}

export function writeContents(dir: string, contents: Contents): void {
  for (const [path, data] of contents) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
}

/** A mutation of a content set: files rewritten, added and deleted. */
export interface Mutation {
  next: Contents;
  changed: string[];
}

/** Picks `modify` files to rewrite, `add` new ones and `remove` to delete, all from `rand`. */
export function mutate(
  current: Contents,
  rand: () => number,
  version: number,
  counts: { modify: number; add: number; remove: number },
): Mutation {
  const next: Contents = new Map(current);
  const paths = [...current.keys()].filter((p) => p.startsWith('src/') || p.startsWith('assets/'));
  const pick = (): string => paths.splice(Math.floor(rand() * paths.length), 1)[0] as string;
  const changed: string[] = [];
  for (let i = 0; i < counts.modify && paths.length > 0; i++) {
    const p = pick();
    const old = current.get(p) as Buffer;
    next.set(
      p,
      p.endsWith('.bin')
        ? binaryContent(p, version, old.length)
        : textContent(p, version, Math.max(1, Math.round(old.length / 80))),
    );
    changed.push(p);
  }
  for (let i = 0; i < counts.remove && paths.length > 0; i++) {
    const p = pick();
    next.delete(p);
    changed.push(p);
  }
  for (let i = 0; i < counts.add; i++) {
    const p = `src/new-v${version}/n${i}/added-${i}.txt`;
    next.set(p, textContent(p, version, 100));
    changed.push(p);
  }
  return { next, changed };
}

/** Brings the directory from `from` to `to` (writes and deletes only what differs). */
export function applyContents(dir: string, from: Contents, to: Contents): void {
  for (const path of from.keys()) if (!to.has(path)) rmSync(join(dir, path), { force: true });
  for (const [path, data] of to)
    if (!from.get(path)?.equals(data)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), data);
    }
}

/** Every file and symlink under `dir` except `.git` and the given top-level names, by path. */
export function readWorkspace(dir: string, skip: readonly string[] = []): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      if (name === '.git' || (rel === '' && skip.includes(name))) continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, path));
      if (st.isDirectory()) walk(path);
      else if (st.isSymbolicLink()) out.set(path, Buffer.from(`symlink:${readlinkSync(join(dir, path))}`));
      else out.set(path, readFileSync(join(dir, path)));
    }
  };
  walk('');
  return out;
}

/**
 * Problems with the workspace relative to the allowed states: a file that matches none of them
 * (half-written or lost), a file none of them has, or a file they all have that is missing.
 */
export function contentProblems(
  dir: string,
  allowed: readonly Contents[],
  skip: readonly string[] = [],
): string[] {
  const actual = readWorkspace(dir, skip);
  const problems: string[] = [];
  const paths = new Set([...actual.keys(), ...allowed.flatMap((c) => [...c.keys()])]);
  for (const path of paths) {
    const have = actual.get(path);
    const ok = allowed.some((state) => {
      const want = state.get(path);
      return want === undefined ? have === undefined : have !== undefined && want.equals(have);
    });
    if (!ok)
      problems.push(
        `${path}: ${have === undefined ? 'missing' : `${have.length} bytes matching no expected version`}`,
      );
  }
  return problems.sort();
}

// ---- the store ----

const StoreMeta = z.object({
  workspace: z.string().min(1),
  projectId: z.string().min(1),
  createdAt: IsoDate,
});

/** Every JSON file under the home parses and validates with the contract's schemas. Returns the problems. */
export function homeProblems(home: string): string[] {
  const problems: string[] = [];
  if (!existsSync(home)) return problems;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = lstatSync(path);
      if (st.isDirectory()) {
        if (name !== 'git') walk(path);
        continue;
      }
      if (!name.endsWith('.json')) continue;
      const rel = relative(home, path);
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        problems.push(`${rel}: ${(error as Error).message}`);
        continue;
      }
      const schema = rel.startsWith('snapshots/')
        ? Snapshot
        : rel.startsWith('runs/')
          ? RunRecord
          : name === 'store.json'
            ? StoreMeta
            : null;
      if (schema === null) continue;
      const parsed = schema.safeParse(value);
      if (!parsed.success)
        problems.push(
          `${rel}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
        );
    }
  };
  walk(home);
  return problems;
}

/** Temporary files our atomic writes leave only when killed mid-write: `.name.<pid>.<rand>.tmp`. */
export function leftoverTemps(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (lstatSync(path).isDirectory()) {
        if (name !== 'git' && name !== '.git') walk(path);
      } else if (name.endsWith('.tmp')) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out;
}

/** The checkpoint stores under a home: their git dirs and index files. */
export function checkpointStores(home: string): Array<{ gitDir: string; indexFile: string }> {
  const root = join(home, 'checkpoints');
  if (!existsSync(root)) return [];
  const out: Array<{ gitDir: string; indexFile: string }> = [];
  for (const project of readdirSync(root)) {
    for (const key of readdirSync(join(root, project))) {
      const dir = join(root, project, key);
      if (existsSync(join(dir, 'git'))) out.push({ gitDir: join(dir, 'git'), indexFile: join(dir, 'index') });
    }
  }
  return out;
}

/**
 * `git fsck --no-dangling` with the oracle git, plus a full read of the index (its checksum is
 * verified on load). Returns null when clean, else what git said.
 */
export function fsckProblems(cwd: string, opts: { gitDir?: string; indexFile?: string } = {}): string | null {
  const env = oracleEnv(
    opts.indexFile && existsSync(opts.indexFile) ? { GIT_INDEX_FILE: opts.indexFile } : {},
  );
  const pre = opts.gitDir ? [`--git-dir=${opts.gitDir}`] : [];
  for (const args of [
    ['fsck', '--no-dangling', '--no-progress'],
    ['ls-files', '-s'],
  ]) {
    if (args[0] === 'ls-files' && opts.gitDir && !(opts.indexFile && existsSync(opts.indexFile))) continue;
    const res = spawnSync('git', [...pre, ...args], {
      cwd,
      env,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (res.status !== 0)
      return `git ${args[0]} exited ${res.status}: ${res.stderr.trim().split('\n').slice(0, 5).join(' | ')}`;
    if (args[0] === 'fsck' && /error|missing|broken|corrupt/i.test(res.stderr))
      return `git fsck: ${res.stderr.trim().split('\n').slice(0, 5).join(' | ')}`;
  }
  return null;
}

/** Object ids of the workspace's files as git would store them (no filters), from one oracle process. */
export function blobIds(dir: string, paths: readonly string[]): Map<string, string> {
  const res = spawnSync('git', ['hash-object', '--no-filters', '--stdin-paths'], {
    cwd: dir,
    env: oracleEnv(),
    input: paths.join('\n'),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`hash-object: ${res.stderr}`);
  const ids = res.stdout.trim().split('\n');
  return new Map(paths.map((p, i) => [p, ids[i] as string]));
}

/** path -> blob id of a tree (or commit) in a git dir, from the oracle git. */
export function treeBlobs(cwd: string, rev: string, gitDir?: string): Map<string, string> {
  const pre = gitDir ? [`--git-dir=${gitDir}`] : [];
  const out = new Map<string, string>();
  for (const record of git(cwd, [...pre, 'ls-tree', '-r', '-z', '--full-tree', rev])
    .split('\0')
    .filter(Boolean)) {
    const tab = record.indexOf('\t');
    out.set(record.slice(tab + 1), record.slice(0, tab).split(' ')[2] as string);
  }
  return out;
}

// ---- "nothing changed on disk" ----

/**
 * sha256 over every path, type and content under `dir` (symlinks by target): equal digests mean an
 * unchanged tree. With `dirs: false`, directories only count through what they hold, so an empty
 * directory left behind does not count as a change.
 */
export function treeDigest(dir: string, opts: { dirs?: boolean } = {}): string {
  const hash = createHash('sha256');
  if (!existsSync(dir)) return 'absent';
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, path));
      if (st.isDirectory()) {
        if (opts.dirs !== false) hash.update(`d ${path}\0`);
        walk(path);
      } else if (st.isSymbolicLink()) hash.update(`l ${path} ${readlinkSync(join(dir, path))}\0`);
      else
        hash
          .update(`f ${path} ${st.mode & 0o777} `)
          .update(readFileSync(join(dir, path)))
          .update('\0');
    }
  };
  walk('');
  return hash.digest('hex');
}

/** sha256 of every file (and symlink target) under `dir`, by relative path. */
export function fileHashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, path));
      if (st.isDirectory()) walk(path);
      else
        out.set(
          path,
          st.isSymbolicLink()
            ? `link:${readlinkSync(join(dir, path))}`
            : createHash('sha256')
                .update(readFileSync(join(dir, path)))
                .digest('hex'),
        );
    }
  };
  walk('');
  return out;
}

/** Files of `before` that are now different or gone. */
export function changedSince(before: Map<string, string>, dir: string): string[] {
  const now = fileHashes(dir);
  return [...before].filter(([path, hash]) => now.get(path) !== hash).map(([path]) => path);
}

/** What a failed call must not change: the home's whole tree, and the workspace's HEAD, refs and index. */
export function diskState(home: string, workspace: string | null): Record<string, string> {
  const state: Record<string, string> = { home: treeDigest(home) };
  if (workspace !== null && existsSync(join(workspace, '.git'))) {
    state.head = readFileSync(join(workspace, '.git', 'HEAD'), 'utf8');
    state.refs = git(workspace, ['for-each-ref', '--format=%(refname) %(objectname)']);
    const index = join(workspace, '.git', 'index');
    state.index = existsSync(index) ? createHash('sha256').update(readFileSync(index)).digest('hex') : 'none';
    state.files = treeDigest(workspace);
  }
  return state;
}

/** A stack trace line as node prints it. */
export const STACK_LINE = /^ {4}at /m;
