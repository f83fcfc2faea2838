// Case 9: a 200 MB binary file added in one iteration. Peak resident memory of the CLI's `after`,
// `patch` and `patch --json` (artifact present, and regenerated from git), `verify`, `checkpoint
// track` and `checkpoint diff-full`, next to the floor script doing the same git work. Three figures per command:
//   node:    the Node process alone (its own getrusage maxRSS, written at exit by a preload);
//   largest: /usr/bin/time -v, i.e. the largest single process in the tree (Node or a git child);
//   tree:    /proc sampled every 20 ms, summing every live process of the tree (what the machine needs).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git, gitEnv } from '../git.js';
import { parseTimeVerbose } from '../measure.js';
import { addRows, scratch, type Bench } from '../results.js';
import { CLI, FLOOR_SCRIPT } from './iteration.js';

const BIG = 200 * 1024 * 1024;
const TIME = '/usr/bin/time';

export interface PeakMemory {
  nodeBytes: number | null;
  largestBytes: number | null;
  treeBytes: number;
  ms: number;
}

/** Writes a file of random bytes in 1 MiB chunks (random data neither compresses nor deltas). */
async function writeRandomFile(path: string, bytes: number): Promise<void> {
  const fh = await open(path, 'w');
  try {
    for (let off = 0; off < bytes; off += 1 << 20)
      await fh.write(randomBytes(Math.min(1 << 20, bytes - off)));
  } finally {
    await fh.close();
  }
}

/** Resident set size of `pid` and every descendant, from /proc (0 for processes gone meanwhile). */
async function treeRss(pid: number): Promise<number> {
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop() as number;
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    if (kb) total += Number(kb[1]) * 1024;
    const tasks = await readdir(`/proc/${p}/task`).catch(() => [] as string[]);
    for (const t of tasks) {
      const children = await readFile(`/proc/${p}/task/${t}/children`, 'utf8').catch(() => '');
      for (const c of children.split(' ').filter(Boolean)) stack.push(Number(c));
    }
  }
  return total;
}

/** Runs a command under /usr/bin/time -v (when present) while sampling the tree's RSS. */
export async function measure(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeReport: string | null,
  /** Exit statuses that are no failure (`gate` exits 3 for a failed verdict). */
  okExit: readonly number[] = [0],
): Promise<{ peak: PeakMemory; stdout: string; bytes: number }> {
  const useTime = existsSync(TIME);
  const [bin, argv] = useTime ? [TIME, ['-v', cmd, ...args]] : [cmd, args];
  if (nodeReport) await rm(nodeReport, { force: true });
  const started = process.hrtime.bigint();
  const child = spawn(bin, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let treeBytes = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling && child.pid !== undefined) {
      treeBytes = Math.max(treeBytes, await treeRss(child.pid));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  let stdoutBytes = 0;
  const head: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => {
    // The patch goes to a consumer that keeps only its head: the reader must not hold 270 MB itself.
    if (stdoutBytes < 1 << 20) head.push(c);
    stdoutBytes += c.length;
  });
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  sampling = false;
  await sampler;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const stderr = Buffer.concat(err).toString('utf8');
  if (code === null || !okExit.includes(code))
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${code}): ${stderr.slice(-2000)}`);
  const timeReport = useTime ? parseTimeVerbose(stderr) : null;
  const nodeBytes = nodeReport && existsSync(nodeReport) ? Number(await readFile(nodeReport, 'utf8')) : null;
  return {
    peak: { nodeBytes, largestBytes: timeReport?.maxRssBytes ?? null, treeBytes, ms },
    stdout: Buffer.concat(head).toString('utf8'),
    bytes: stdoutBytes,
  };
}

/**
 * A preload in `root` that makes a Node process write its own peak RSS at exit into `nodeReport`
 * (process.resourceUsage().maxRSS: this process only, in kilobytes, children excluded); `env`
 * loads it.
 */
export async function rssProbe(root: string): Promise<{ env: NodeJS.ProcessEnv; nodeReport: string }> {
  const probe = join(root, 'rss-probe.mjs');
  const nodeReport = join(root, 'node-maxrss');
  await writeFile(
    probe,
    `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(nodeReport)}, String(process.resourceUsage().maxRSS * 1024)));\n`,
  );
  return { env: { ...process.env, NODE_OPTIONS: `--import=${probe}` }, nodeReport };
}

export async function memoryCase(bench: Bench): Promise<void> {
  const root = await scratch('memory');
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  const { env: cliEnv, nodeReport: report } = await rssProbe(root);
  git(root, ['init', '-q', '--initial-branch=main', ws]);
  git(ws, ['config', 'gc.auto', '0']);
  await writeFile(join(ws, 'README.md'), 'memory case\n');
  git(ws, ['add', '-A']);
  git(ws, ['commit', '-q', '-m', 'base']);
  const cli = (args: string[], json = true): Promise<{ peak: PeakMemory; stdout: string; bytes: number }> =>
    measure(
      process.execPath,
      [CLI, ...args, '--home', home, '-C', ws, ...(json ? ['--json'] : [])],
      cliEnv,
      report,
    );

  bench.log(
    'memory: 200 MB binary change (CLI after, patch, patch --json, verify, checkpoint track and diff-full; floor for comparison)',
  );
  // Checkpoints skip files over 10 MB by default: raise the cap so that the big file is captured.
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.yaml'), `checkpoints:\n  maxFileSizeBytes: ${2 * BIG}\n`);
  await cli(['before', '--run', 'mem']);
  const base = JSON.parse((await cli(['checkpoint', 'track'])).stdout) as { hash: string };
  await writeRandomFile(join(ws, 'big.bin'), BIG);
  const track = await cli(['checkpoint', 'track']);
  const tracked = JSON.parse(track.stdout) as { hash: string; skipped: unknown[] };
  if (tracked.skipped.length > 0)
    throw new Error(`checkpoint track skipped ${JSON.stringify(tracked.skipped)}`);
  const diffFull = await cli(['checkpoint', 'diff-full', base.hash, tracked.hash]);
  const after = await cli(['after', '--run', 'mem', '--iteration', '1']);
  const snapshot = JSON.parse(after.stdout) as { id: string; patchPath: string; beforeSha: string };
  // `patch` prints the diff text; with --json the CLI wraps it in one JSON document (measured apart).
  const patch = await cli(['patch', snapshot.id], false);
  const patchJson = await cli(['patch', snapshot.id], true);
  if (patchJson.bytes < BIG)
    throw new Error(`patch --json printed ${patchJson.bytes} bytes, less than the change`);
  const verify = await cli(['verify', snapshot.id], true);
  if (!(JSON.parse(verify.stdout) as { ok: boolean }).ok)
    throw new Error(`verify failed: ${verify.stdout.slice(0, 2000)}`);
  await rm(snapshot.patchPath, { force: true });
  const regenerated = await cli(['patch', snapshot.id], false);
  const regeneratedJson = await cli(['patch', snapshot.id], true);

  // The same change through the floor script, on a fresh branch from the same base.
  git(ws, ['checkout', '-q', '-f', '-B', 'main', snapshot.beforeSha]);
  await writeRandomFile(join(ws, 'big.bin'), BIG);
  const out = await scratch('memory-floor');
  const floor = await measure('sh', [FLOOR_SCRIPT, 'after', ws, snapshot.beforeSha, out], gitEnv(), null);

  const peaks: Record<string, PeakMemory> = {
    'cli after': after.peak,
    'cli patch (artifact)': patch.peak,
    'cli patch (regenerated)': regenerated.peak,
    'cli patch --json (artifact)': patchJson.peak,
    'cli patch --json (regenerated)': regeneratedJson.peak,
    'cli verify': verify.peak,
    'cli checkpoint track': track.peak,
    'cli checkpoint diff-full': diffFull.peak,
    'floor after (git only)': floor.peak,
  };
  for (const [name, p] of Object.entries(peaks)) {
    const samples: Record<string, number[]> = {
      'largest process': [p.largestBytes ?? Number.NaN],
      'process tree': [p.treeBytes],
    };
    if (p.nodeBytes !== null) samples['node process'] = [p.nodeBytes];
    addRows(bench, { case: 'peak memory, 200 MB binary added', scale: name, unit: 'bytes' }, samples, null);
  }
  bench.facts.memory = Object.fromEntries(
    Object.entries(peaks).map(([k, p]) => [k, { ...p, ms: Math.round(p.ms) }]),
  );
  await rm(root, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
}
