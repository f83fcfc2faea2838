// Two or more builds of the CLI compared by turns: each round runs every build once, in an order
// that rotates from round to round, and the medians are printed. What the bench's ratios cannot
// tell on a shared machine (did this change make `iterate` slower?) shows here, for the same load
// falls on every contestant of a round.
//
//   node bench/by-turns.mjs iterate ROUNDS FILES BIN...     each BIN iterates in a repository of its own
//   node bench/by-turns.mjs iterate ROUNDS DIR BIN...       ... a copy of the repository DIR
//   node bench/by-turns.mjs start ROUNDS ARGS BIN...        `BIN ARGS` (ARGS one word list, say "runs --json")
//
// A BIN is the path of a built `dist/bin/agentgate-snapshot.js`; an older build comes from
// `git worktree add /tmp/old REV && cd /tmp/old && npm ci && npm run build`. The agent appends a
// line to one file per iteration.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';

const [mode, rounds, what, ...given] = process.argv.slice(2);
const bins = given.map((bin) => resolve(bin));
if (!['iterate', 'start'].includes(mode) || !(Number(rounds) > 0) || what === undefined || bins.length < 1) {
  process.stderr.write('usage: node bench/by-turns.mjs iterate|start ROUNDS FILES|DIR|ARGS BIN...\n');
  process.exit(2);
}
const root = mkdtempSync(join(tmpdir(), 'agentgate-by-turns-'));
const git = (cwd, args) => spawnSync('git', args, { cwd, stdio: 'ignore' });

/** A workspace for contestant `i`: a copy of DIR, or a new repository of FILES files in 20 directories. */
function workspace(i) {
  const dir = join(root, `ws${i}`);
  if (!/^\d+$/.test(what)) {
    cpSync(resolve(what), dir, { recursive: true });
    return dir;
  }
  mkdirSync(dir);
  git(dir, ['init', '-q', '-b', 'main']);
  for (let f = 0; f < Number(what); f++) {
    mkdirSync(join(dir, `d${f % 20}`), { recursive: true });
    writeFileSync(join(dir, `d${f % 20}`, `f${f}.txt`), `line ${f}\n`.repeat(20));
  }
  git(dir, ['add', '-A']);
  git(dir, ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'init']);
  return dir;
}

const runs = bins.map((bin, i) => {
  const home = join(root, `home${i}`);
  const env = { ...process.env, AGENTGATE_HOME: home, HOME: home };
  if (mode === 'start')
    return () => spawnSync(process.execPath, [bin, ...what.split(' ')], { env, cwd: root });
  const cwd = workspace(i);
  const agent = ['sh', '-c', `echo "$0" >> agentgate-by-turns.txt`];
  return (round) =>
    spawnSync(
      process.execPath,
      [bin, 'iterate', '--run', 'r1', '--iteration', String(round + 1), '--', ...agent, `${round}`],
      {
        cwd,
        env,
      },
    );
});

const times = bins.map(() => []);
try {
  // Round 0 warms every contestant up (the compile cache, the page cache) and is not counted.
  for (let round = 0; round <= Number(rounds); round++)
    for (let k = 0; k < bins.length; k++) {
      const i = (k + round) % bins.length;
      const started = process.hrtime.bigint();
      const res = runs[i](round);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.status !== 0)
        throw new Error(`${bins[i]}: exit ${res.status}: ${String(res.stderr).slice(0, 500)}`);
      if (round > 0) times[i].push(ms);
    }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  for (const [i, bin] of bins.entries())
    process.stdout.write(`${median(times[i]).toFixed(1).padStart(8)} ms  ${bin}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
