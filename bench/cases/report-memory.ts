// Case: `report` at scale. A text change of AGENTGATE_BENCH_REPORT_MB megabytes (default 200: one
// file of half of it and 200 KB files for the rest) in one iteration, then `report -o` in every
// format, with the patch artifact and regenerated from git. Peak resident memory as in the memory
// case (node: the CLI process alone; largest: /usr/bin/time -v; tree: with git's children).
import { open, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git.js';
import { addRows, scratch, type Bench } from '../results.js';
import { CLI } from './iteration.js';
import { measure, rssProbe, type PeakMemory } from './memory.js';

const MB = 1000 * 1000;
const SMALL_FILE = 200 * 1000;

/** `bytes` of numbered text lines, written a megabyte at a time. */
async function writeTextFile(path: string, bytes: number, label: string): Promise<void> {
  const fh = await open(path, 'w');
  try {
    let line = 0;
    for (let written = 0; written < bytes;) {
      let chunk = '';
      while (chunk.length < Math.min(MB, bytes - written))
        chunk += `${label} ${String(line++).padStart(9, '0')} the quick brown fox jumps over the lazy dog\n`;
      await fh.write(chunk);
      written += chunk.length;
    }
  } finally {
    await fh.close();
  }
}

export async function reportMemoryCase(bench: Bench): Promise<void> {
  const size = Number(process.env.AGENTGATE_BENCH_REPORT_MB ?? '200') * MB;
  const root = await scratch('report-memory');
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  const { env, nodeReport } = await rssProbe(root);
  git(root, ['init', '-q', '--initial-branch=main', ws]);
  git(ws, ['config', 'gc.auto', '0']);
  await writeFile(join(ws, 'README.md'), 'report memory case\n');
  git(ws, ['add', '-A']);
  git(ws, ['commit', '-q', '-m', 'base']);
  const cli = (args: string[]) =>
    measure(process.execPath, [CLI, ...args, '--home', home, '-C', ws, '--json'], env, nodeReport);

  bench.log(`report-memory: ${size / MB} MB text change, report -o in every format`);
  await cli(['before', '--run', 'big']);
  await writeTextFile(join(ws, 'big.txt'), size / 2, 'big');
  for (let i = 0; (i + 1) * SMALL_FILE <= size / 2; i++)
    await writeTextFile(join(ws, `f-${String(i).padStart(5, '0')}.txt`), SMALL_FILE, `f${i}`);
  const after = JSON.parse((await cli(['after', '--run', 'big', '--iteration', '1'])).stdout) as {
    patchPath: string;
  };
  const patchBytes = (await stat(after.patchPath)).size;
  bench.log(`report-memory: patch artifact ${Math.round(patchBytes / 2 ** 20)} MiB`);

  const peaks: Record<string, PeakMemory> = {};
  const sizes: Record<string, number> = {};
  const report = async (name: string, format: string) => {
    const file = join(root, `report-${name}.${format}`);
    const res = await cli(['report', '--run', 'big', '--format', format, '-o', file]);
    peaks[name] = res.peak;
    sizes[name] = (await stat(file)).size;
  };
  for (const format of ['html', 'md', 'json', 'dotenv']) await report(`${format} (artifact)`, format);
  await rm(after.patchPath);
  await report('html (regenerated from git)', 'html');

  const scale = `${Math.round(patchBytes / 2 ** 20)} MiB text patch`;
  for (const [name, p] of Object.entries(peaks)) {
    const samples: Record<string, number[]> = {
      'largest process': [p.largestBytes ?? Number.NaN],
      'process tree': [p.treeBytes],
    };
    if (p.nodeBytes !== null) samples['node process'] = [p.nodeBytes];
    addRows(bench, { case: `peak memory, report ${name}`, scale, unit: 'bytes' }, samples, null);
  }
  bench.facts.reportMemory = Object.fromEntries(
    Object.entries(peaks).map(([k, p]) => [k, { ...p, ms: Math.round(p.ms), outputBytes: sizes[k] }]),
  );
  await rm(root, { recursive: true, force: true });
}
