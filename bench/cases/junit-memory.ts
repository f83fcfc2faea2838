// Case: `gate --junit` on a huge report. A JUnit file of AGENTGATE_BENCH_JUNIT_MB megabytes
// (default 500: test cases with a kilobyte of <system-out> each, one in a hundred failing) is read
// by `gate`; the reader streams, so peak memory must stay flat (target: under 150 MB). Peak
// resident memory as in the memory case (node: the CLI process alone; largest: /usr/bin/time -v).
import { open, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git.js';
import { addRows, scratch, type Bench } from '../results.js';
import { CLI } from './iteration.js';
import { measure, rssProbe } from './memory.js';

const MB = 1000 * 1000;
const OUT = 'x'.repeat(1000);

/** Writes a JUnit report of about `bytes`, a megabyte at a time; returns how many test cases it holds. */
async function writeJunit(path: string, bytes: number): Promise<number> {
  const fh = await open(path, 'w');
  let cases = 0;
  try {
    await fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="bench">\n');
    let written = 0;
    for (let suite = 0; written < bytes; suite++) {
      let chunk = `<testsuite name="suite ${suite}">\n`;
      while (chunk.length < MB) {
        const n = cases++;
        const failure =
          n % 100 === 0 ? `<failure message="expected ${n} &lt; ${n + 1}">stack of ${n}</failure>` : '';
        chunk += `<testcase classname="c${suite}" name="case ${n}" time="0.001">${failure}<system-out>${OUT}</system-out></testcase>\n`;
      }
      chunk += '</testsuite>\n';
      await fh.write(chunk);
      written += chunk.length;
    }
    await fh.write('</testsuites>\n');
  } finally {
    await fh.close();
  }
  return cases;
}

export async function junitMemoryCase(bench: Bench): Promise<void> {
  const size = Number(process.env.AGENTGATE_BENCH_JUNIT_MB ?? '500') * MB;
  const root = await scratch('junit-memory');
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  const junit = join(root, 'junit.xml');
  const { env, nodeReport } = await rssProbe(root);
  git(root, ['init', '-q', '--initial-branch=main', ws]);
  await writeFile(join(ws, 'README.md'), 'junit memory case\n');
  git(ws, ['add', '-A']);
  git(ws, ['commit', '-q', '-m', 'base']);
  const cli = (args: string[]) =>
    measure(process.execPath, [CLI, '--home', home, '-C', ws, '--json', ...args], env, nodeReport, [0, 3]);

  await cli(['before', '--run', 'big']);
  await writeFile(join(ws, 'a.txt'), 'changed\n');
  await cli(['after', '--run', 'big', '--iteration', '1']);
  const cases = await writeJunit(junit, size);
  const bytes = (await stat(junit)).size;
  bench.log(`junit-memory: ${Math.round(bytes / MB)} MB JUnit file, ${cases} test cases`);
  // The check only touches the report: a file older than the gate's start would not count.
  const res = await cli(['gate', '--run', 'big', '--name', 'test', '--junit', junit, '--', 'touch', junit]);
  const verdict = JSON.parse(res.stdout) as {
    verdict: string;
    tests: { total: number; failed: number } | null;
  };
  if (verdict.tests?.total !== cases || verdict.tests.failed !== Math.ceil(cases / 100))
    throw new Error(
      `junit-memory: counts are not exact: ${JSON.stringify(verdict.tests)} for ${cases} cases`,
    );
  const p = res.peak;
  const samples: Record<string, number[]> = {
    'largest process': [p.largestBytes ?? Number.NaN],
    'process tree': [p.treeBytes],
  };
  if (p.nodeBytes !== null) samples['node process'] = [p.nodeBytes];
  const scale = `${Math.round(bytes / MB)} MB JUnit, ${cases} cases`;
  addRows(bench, { case: 'peak memory, gate --junit', scale, unit: 'bytes' }, samples, null);
  bench.facts.junitMemory = { ...p, bytes, cases, ms: Math.round(p.ms) };
  await rm(root, { recursive: true, force: true });
}
