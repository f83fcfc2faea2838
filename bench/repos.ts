// Benchmark repositories: N text files of about 2 KB in nested directories plus one binary file,
// generated once with `git fast-import` into os.tmpdir() and reused by later runs (keyed by size
// and layout version). Also the agent-like workload applied before each measured iteration.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, gitEnv } from './git.js';

/** Bump when the layout or contents change, so that old caches are not reused. */
const LAYOUT_VERSION = 1;
const FILES_PER_DIR = 50;
const LINES_PER_FILE = 40;
export const BINARY_PATH = 'assets/blob.bin';
const BINARY_BYTES = 64 * 1024;

/** Where cached repositories and scratch directories live (outside the checkout). */
export function benchRoot(): string {
  return process.env.AGENTGATE_BENCH_DIR ?? join(tmpdir(), 'agentgate-bench');
}

export interface BenchRepo {
  files: number;
  /** The work tree (a normal, non-bare repository). */
  dir: string;
  /** The generated commit every measurement resets to. */
  base: string;
}

/** Path of text file `i` in a repository of `n` files: three directory levels, about 50 files per leaf. */
export function pathFor(i: number, n: number): string {
  const leaves = Math.max(1, Math.ceil(n / FILES_PER_DIR));
  const fan = Math.max(1, Math.ceil(Math.cbrt(leaves)));
  const leaf = i % leaves;
  const a = Math.floor(leaf / (fan * fan));
  const b = Math.floor(leaf / fan) % fan;
  const c = leaf % fan;
  return `src/pkg${a}/mod${b}/part${c}/file${i}.txt`;
}

const WORDS =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(
    ' ',
  );

/** Deterministic text of about 2 KB, unique per file (so that blobs do not collapse into one). */
export function fileText(i: number, salt = ''): string {
  const lines: string[] = [`// file ${i}${salt}`];
  let x = (i * 2654435761) >>> 0;
  for (let k = 0; k < LINES_PER_FILE; k++) {
    const words: string[] = [];
    for (let w = 0; w < 7; w++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      words.push(WORDS[x % WORDS.length] as string);
    }
    lines.push(`${k.toString().padStart(3, '0')} ${words.join(' ')};`);
  }
  return `${lines.join('\n')}\n`;
}

/** Deterministic pseudo-random bytes (binary content that neither compresses nor deltas well). */
export function binaryBytes(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(seed).digest();
  for (let off = 0; off < size; off += block.length) {
    block.copy(out, off);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/**
 * The repository of `n` files, generated on first use. Generation streams every blob into one
 * `git fast-import` process (no per-file process) and checks the tree out once.
 */
export async function ensureRepo(n: number, log: (msg: string) => void): Promise<BenchRepo> {
  const dir = join(benchRoot(), `repo-${n}-v${LAYOUT_VERSION}`);
  const marker = `${dir}.json`;
  if (existsSync(marker) && existsSync(join(dir, '.git'))) {
    const meta = JSON.parse(await readFile(marker, 'utf8')) as { base: string };
    const repo = { files: n, dir, base: meta.base };
    pruneLeftovers(repo, log);
    return repo;
  }
  log(`generating a repository of ${n} files in ${dir} (cached for later runs)`);
  const started = Date.now();
  await rm(dir, { recursive: true, force: true });
  await rm(marker, { force: true });
  await mkdir(dir, { recursive: true });
  git(dir, ['init', '-q', '--initial-branch=main']);
  // No auto-gc or auto-maintenance in the middle of a measurement, whichever contestant commits.
  git(dir, ['config', 'gc.auto', '0']);
  git(dir, ['config', 'maintenance.auto', 'false']);
  // No reflog: the commits of earlier runs must become unreachable once their refs are gone.
  git(dir, ['config', 'core.logAllRefUpdates', 'false']);
  await fastImport(dir, n);
  git(dir, ['reset', '-q', '--hard', 'main']);
  // Settle racily-clean index entries once (files written in the same second as the index).
  await new Promise((r) => setTimeout(r, 1100));
  git(dir, ['update-index', '-q', '--refresh']);
  const base = git(dir, ['rev-parse', 'HEAD']).trim();
  await writeFile(`${marker}.tmp`, JSON.stringify({ files: n, base, generatedMs: Date.now() - started }));
  await rename(`${marker}.tmp`, marker);
  log(`generated ${n} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { files: n, dir, base };
}

async function fastImport(dir: string, n: number): Promise<void> {
  const child = spawn('git', ['fast-import', '--quiet', '--done'], {
    cwd: dir,
    env: gitEnv(),
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const err: Buffer[] = [];
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const write = async (chunk: string | Buffer): Promise<void> => {
    if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
  };
  const msg = `bench: ${n} files\n`;
  await write(
    `commit refs/heads/main\ncommitter bench <bench@localhost> 1700000000 +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`,
  );
  let batch: string[] = [];
  for (let i = 0; i < n; i++) {
    const text = fileText(i);
    batch.push(`M 100644 inline ${pathFor(i, n)}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
    if (batch.length === 500) {
      await write(batch.join(''));
      batch = [];
    }
  }
  if (batch.length > 0) await write(batch.join(''));
  const bin = binaryBytes(BINARY_BYTES, 'base');
  await write(`M 100644 inline ${BINARY_PATH}\ndata ${bin.length}\n`);
  await write(bin);
  await write('\ndone\n');
  child.stdin.end();
  const code = await closed;
  if (code !== 0)
    throw new Error(`git fast-import failed (exit ${code}): ${Buffer.concat(err).toString('utf8')}`);
}

/** Loose objects from earlier runs beyond which a cached repository is pruned before use. */
const LOOSE_OBJECT_LIMIT = 5000;

/**
 * Every measured iteration leaves a few dozen loose objects behind. When a cached repository has
 * gathered many, they are pruned (untimed), so that later runs do not measure a growing object store.
 */
function pruneLeftovers(repo: BenchRepo, log: (msg: string) => void): void {
  git(repo.dir, ['config', 'core.logAllRefUpdates', 'false']);
  const count = Number(/^count: (\d+)$/m.exec(git(repo.dir, ['count-objects', '-v']))?.[1] ?? 0);
  if (count <= LOOSE_OBJECT_LIMIT) return;
  log(`pruning ${count} loose objects left in ${repo.dir} by earlier runs`);
  resetRepo(repo);
  git(repo.dir, ['reflog', 'expire', '--expire=now', '--all']);
  git(repo.dir, ['prune', '--expire=now']);
}

/**
 * Puts the work tree, index and branch back at the generated commit: removes files a workload
 * created, drops refs earlier measurements made, and resets. Not timed.
 */
export function resetRepo(repo: BenchRepo, created: readonly string[] = []): void {
  for (const path of created) rmSyncQuiet(join(repo.dir, path));
  const refs = git(repo.dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/', 'refs/bench/'])
    .split('\n')
    .filter(Boolean);
  if (refs.length > 0)
    git(repo.dir, ['update-ref', '--stdin'], { input: refs.map((r) => `delete ${r}\n`).join('') });
  git(repo.dir, ['checkout', '-q', '-f', '-B', 'main', repo.base]);
}

/** Synchronous on purpose: resets happen between measurements, never inside one. */
function rmSyncQuiet(path: string): void {
  rmSync(path, { force: true, recursive: true });
}

export interface Workload {
  modified: string[];
  added: string[];
  deleted: string[];
  renamed: Array<{ from: string; to: string }>;
  binary: string[];
  /** Paths that did not exist before (to delete when resetting). */
  created: string[];
}

/**
 * One agent-like iteration: 10 files modified, 2 added, 1 deleted, 1 renamed (content kept, so
 * git detects the rename) and the binary file rewritten. `nonce` makes every application's content
 * new, so no contestant finds its objects already written by another.
 */
export async function applyWorkload(repo: BenchRepo, nonce: string): Promise<Workload> {
  const { plan, workload } = workloadPlan(repo, nonce);
  for (const path of plan.remove) await rm(join(repo.dir, path));
  for (const [from, to] of plan.rename) {
    await mkdir(dirname(join(repo.dir, to)), { recursive: true });
    await rename(join(repo.dir, from), join(repo.dir, to));
  }
  for (const [path, base64] of Object.entries(plan.write)) {
    await mkdir(dirname(join(repo.dir, path)), { recursive: true });
    await writeFile(join(repo.dir, path), Buffer.from(base64, 'base64'));
  }
  return workload;
}

/** One workload as data: what bench/agent.mjs applies (paths relative to the workspace, contents in base64). */
export interface WorkloadPlan {
  write: Record<string, string>;
  remove: string[];
  rename: Array<[string, string]>;
}

/** The workload of `applyWorkload`, as a plan for the agent program and the files it touches. */
export function workloadPlan(repo: BenchRepo, nonce: string): { plan: WorkloadPlan; workload: Workload } {
  const n = repo.files;
  const pick = (k: number): number => Math.floor(((k + 0.5) * n) / 13);
  const plan: WorkloadPlan = { write: {}, remove: [], rename: [] };
  const w: Workload = {
    modified: [],
    added: [],
    deleted: [],
    renamed: [],
    binary: [BINARY_PATH],
    created: [],
  };
  const write = (path: string, data: string | Buffer): void => {
    plan.write[path] = Buffer.from(data).toString('base64');
  };
  for (let k = 0; k < 10; k++) {
    const i = pick(k);
    const path = pathFor(i, n);
    const lines = fileText(i).split('\n');
    lines[5] = `changed by iteration ${nonce}`;
    lines.splice(20, 0, `inserted ${nonce} a`, `inserted ${nonce} b`);
    write(path, lines.join('\n'));
    w.modified.push(path);
  }
  for (let k = 0; k < 2; k++) {
    const path = `src/new/added-${nonce}-${k}.txt`;
    write(path, fileText(n + k, ` ${nonce}`));
    w.added.push(path);
    w.created.push(path);
  }
  const del = pathFor(pick(10), n);
  plan.remove.push(del);
  w.deleted.push(del);
  const from = pathFor(pick(11), n);
  const to = `src/moved/renamed-${nonce}.txt`;
  plan.rename.push([from, to]);
  w.renamed.push({ from, to });
  w.created.push(to);
  write(BINARY_PATH, binaryBytes(BINARY_BYTES, nonce));
  return { plan, workload: w };
}

/** Rewrites `count` text files (spread over the tree) so that a diff touches exactly those. */
export async function modifyFiles(repo: BenchRepo, count: number, nonce: string): Promise<string[]> {
  const paths: string[] = [];
  const step = Math.max(1, Math.floor(repo.files / count));
  for (let k = 0; k < count; k++) {
    const i = (k * step) % repo.files;
    const path = pathFor(i, repo.files);
    const lines = fileText(i).split('\n');
    lines[3] = `edited ${nonce}`;
    await writeFile(join(repo.dir, path), lines.join('\n'));
    paths.push(path);
  }
  return paths;
}
