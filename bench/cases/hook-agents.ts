// Issue 28 target 7: a post-tool event at 1,000 files through the command `hook install` writes
// (the installed bin run by node directly, as an agent runs it: `sh -c COMMAND`, the event on
// stdin), against one Node start-up plus the git floor of a checkpoint (add, write-tree,
// commit-tree, update-ref into a private store). Target: hook <= node + 1.3 x floor.
// Beside them, the ideal Node hook (bench/ideal-hook.mjs: read the event, spawn the floor's four
// commands, nothing else), run the same way: the least any hook written for Node can cost.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installHooks } from '../../src/hooks/install/install.js';
import { git, gitEnv, run } from '../git.js';
import { median, rotate } from '../measure.js';
import { applyWorkload, ensureRepo, resetRepo } from '../repos.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { CLI, FLOOR_SCRIPT } from './iteration.js';

const IDEAL_HOOK = fileURLToPath(new URL('../ideal-hook.mjs', import.meta.url));

/** A word of a shell command line, quoted. */
const shWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The hook's budget is set out of the way: the case measures the work, not the cut-off. */
const NO_BUDGET = 'hooks:\n  timeoutMs: 3600000\n';

/** What Codex runs for a hook: `sh -c COMMAND`, the event on stdin. */
function shHook(command: string, home: string, event: object): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      env: { ...gitEnv(), AGENTGATE_HOME: home },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`hook exited ${code}`))));
    child.stdin.end(JSON.stringify(event));
  });
}

export async function hookAgentCase(bench: Bench): Promise<void> {
  for (const size of bench.sizes) {
    const repo = await ensureRepo(size, bench.log);
    resetRepo(repo);
    const home = await scratch(`home-hook-agent-${size}`);
    await writeFile(join(home, 'config.yaml'), NO_BUDGET);
    // The command as `hook install codex --user` writes it, into a scratch home's config.toml.
    const userDir = await scratch(`user-hook-agent-${size}`);
    await mkdir(userDir, { recursive: true });
    const installed = await installHooks('codex', {
      scope: 'user',
      workspace: repo.dir,
      homeDir: userDir,
      runner: { node: process.execPath, bin: CLI },
    });
    const command = installed.command as string;
    const floorDir = join(await scratch(`floor-hook-agent-${size}`), 'git');
    git(repo.dir, ['init', '-q', '--bare', floorDir]);
    const idealDir = join(await scratch(`ideal-hook-agent-${size}`), 'git');
    git(repo.dir, ['init', '-q', '--bare', idealDir]);
    const idealCommand = [process.execPath, IDEAL_HOOK, idealDir].map(shWord).join(' ');
    const shellDir = join(await scratch(`ideal-shell-hook-agent-${size}`), 'git');
    git(repo.dir, ['init', '-q', '--bare', shellDir]);
    const shellCommand = [process.execPath, IDEAL_HOOK, shellDir, 'one-shell'].map(shWord).join(' ');
    const event = (rep: number) => ({
      session_id: 'bench',
      turn_id: `turn-${rep}`,
      transcript_path: null,
      cwd: repo.dir,
      hook_event_name: 'PostToolUse',
      model: 'gpt-5.3-codex',
      permission_mode: 'default',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** End Patch\n' },
      tool_response: 'Success.',
      tool_use_id: `call_${rep}`,
    });
    const contestants: Record<string, (rep: number) => Promise<unknown>> = {
      'installed hook (codex PostToolUse)': (rep) => shHook(command, home, event(rep)),
      'ideal Node hook': (rep) => shHook(idealCommand, home, event(rep)),
      'ideal Node hook, one sh': (rep) => shHook(shellCommand, home, event(rep)),
      'node -e 0': () => run(process.execPath, ['-e', '0']),
      floor: () => run('sh', [FLOOR_SCRIPT, 'checkpoint', repo.dir, floorDir], { env: gitEnv() }),
    };
    bench.log(`hook-agent @ ${size} files: first captures`);
    await shHook(command, home, { ...event(-2), hook_event_name: 'SessionStart', source: 'startup' });
    await contestants.floor?.(-2);
    await contestants['ideal Node hook']?.(-2);
    await contestants['ideal Node hook, one sh']?.(-2);
    const samples: Record<string, number[]> = Object.fromEntries(
      Object.keys(contestants).map((n) => [n, []]),
    );
    bench.log(`hook-agent @ ${size} files: ${bench.reps} repetitions`);
    for (let rep = -1; rep < bench.reps; rep++) {
      for (const name of rotate(Object.keys(contestants), rep)) {
        const w = await applyWorkload(repo, `hook-agent-${name.replace(/[^a-z0-9]+/gi, '-')}-${rep}`);
        const t = await timed(() => (contestants[name] as (r: number) => Promise<unknown>)(rep));
        resetRepo(repo, w.created);
        if (rep >= 0) samples[name]?.push(t.ms);
      }
    }
    const hook = samples['installed hook (codex PostToolUse)'] ?? [];
    const node = samples['node -e 0'] ?? [];
    const floor = samples.floor ?? [];
    const ideal = samples['ideal Node hook'] ?? [];
    const oneShell = samples['ideal Node hook, one sh'] ?? [];
    // Per repetition: (hook - one Node start-up) / floor; the target is 1.3.
    const ratio = (of: number[]) =>
      Math.round(median(of.map((h, i) => (h - (node[i] as number)) / (floor[i] as number))) * 100) / 100;
    const beyondNode = ratio(hook);
    const idealBeyondNode = ratio(ideal);
    const oneShellBeyondNode = ratio(oneShell);
    addRows(bench, { case: 'agent hook, post-tool event', scale: `${size} files` }, samples, 'floor', {
      'installed hook (codex PostToolUse)': {
        note: `sh -c <the command hook install writes>; (hook - node start-up) / floor = ${beyondNode} (target 1.3)`,
      },
      'ideal Node hook': {
        gitProcesses: 4,
        note: `bench/ideal-hook.mjs: reads the event, spawns the floor's four commands; (ideal - node start-up) / floor = ${idealBeyondNode}`,
      },
      'ideal Node hook, one sh': {
        gitProcesses: 4,
        note: `bench/ideal-hook.mjs one-shell: reads the event, spawns bench/floor.sh alone; (x - node start-up) / floor = ${oneShellBeyondNode}`,
      },
      'node -e 0': { note: 'one Node start-up' },
      floor: {
        gitProcesses: 4,
        note: 'add -A, write-tree, commit-tree, update-ref (private git dir + index)',
      },
    });
    bench.facts[`hookAgent${size}`] = { command, beyondNode, idealBeyondNode, oneShellBeyondNode };
    bench.log(
      `hook-agent @ ${size} files: (x - node) / floor: hook ${beyondNode}, ideal ${idealBeyondNode}, ideal one sh ${oneShellBeyondNode}`,
    );
  }
}
