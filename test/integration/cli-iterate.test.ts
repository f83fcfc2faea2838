/**
 * `iterate` through the built CLI: before, the agent command, after in one process. The agent's
 * stdio is ours (with --json its stdout goes to our stderr), its exit status becomes ours, signals
 * reach it, a command that cannot start is AGENT_NOT_STARTED with only the before state recorded,
 * and the snapshot equals what `before` + the same work + `after` record.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { constants, hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { RunRecord } from '../../types/run.js';
import { AgentOutcome, BeforeState, Snapshot } from '../../types/snapshot.js';
import { CLI, runCli } from '../helpers/cli.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { until } from '../helpers/node-child.js';

/** Whether a process with this pid still runs: it exists (signal 0 sends nothing) and is no zombie. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/\) [ZX] /.test(stat);
}

const IterationSnapshot = z.object({ ...Snapshot.shape, agent: AgentOutcome });

/** The agent: a node program given as `node -e SCRIPT` (no shell in between). */
function agent(script: string): string[] {
  return [process.execPath, '-e', script];
}

/** A workspace with one commit and a home of its own; `run` calls the CLI on them. */
function setup(ws = repoWithCommit({ 'a.txt': 'one\n' })) {
  const home = tempDir('agentgate-home-');
  const env = { AGENTGATE_HOME: home };
  // -C right after the command word, before any "--"; the CLI's own directory is never the project's.
  const run = (args: string[], input?: string) =>
    runCli([args[0] as string, '-C', ws, ...args.slice(1)], {
      cwd: tempDir('agentgate-cwd-'),
      env,
      ...(input === undefined ? {} : { input }),
    });
  return { ws, home, env, run };
}

const ITERATE = ['iterate', '--run', 'r1', '--iteration', '1', '--task', 'the task', '--gate', 'npm test'];
const WRITE_B = `require('fs').writeFileSync('b.txt', 'two\\n')`;

/** `iterate --json` of ITERATE with the agent `script`, in the background, once the agent has written `ready`. */
async function iterateInBackground(ws: string, env: Record<string, string>, script: string, ready: string) {
  const child = spawn(process.execPath, [CLI, ...ITERATE, '--json', '-C', ws, '--', ...agent(script)], {
    cwd: tempDir('agentgate-cwd-'),
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  while (!existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 20));
  return { child, stdout: () => out, closed };
}

describe('iterate', () => {
  it('gives the agent our stdin, stdout and stderr, then prints and stores the snapshot with the agent outcome', () => {
    const { ws, run } = setup();
    const res = run(
      [
        ...ITERATE,
        '--',
        ...agent(
          `const fs = require('fs'); fs.writeFileSync('b.txt', fs.readFileSync(0)); console.log('agent says hi'); console.error('agent warns')`,
        ),
      ],
      'from stdin\n',
    );
    expect(res.status, res.stderr).toBe(0);
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('from stdin\n');
    expect(res.stdout.startsWith('agent says hi\n')).toBe(true);
    expect(res.stdout).toMatch(/Snapshot snap-\S+: run r1 iteration 1/);
    expect(res.stdout).toMatch(/agent: exited 0 after/);
    expect(res.stderr).toBe('agent warns\n');
    const [stored] = z.array(Snapshot).parse(run(['list', '--json']).json());
    expect(stored?.files.map((f) => f.path)).toEqual(['b.txt']);
    expect(stored?.agent).toMatchObject({ exitCode: 0, signal: null });
    expect(stored?.afterSha).toBe(head(ws));
  });

  it('with --json keeps stdout one JSON document and sends the agent stdout to stderr', () => {
    const { ws, run } = setup();
    const res = run([
      ...ITERATE,
      '--json',
      '--',
      ...agent(`${WRITE_B}; console.log('{"not": "ours"}'); console.error('to stderr')`),
    ]);
    expect(res.status, res.stderr).toBe(0);
    const snapshot = IterationSnapshot.parse(res.json());
    expect(snapshot.agent.exitCode).toBe(0);
    expect(snapshot.agent.signal).toBeNull();
    expect(snapshot.afterSha).toBe(head(ws));
    expect(res.stderr).toBe('{"not": "ours"}\nto stderr\n');
  });

  it('records the iteration when the agent fails and exits with its status', () => {
    const { ws, run } = setup();
    const res = run([...ITERATE, '--json', '--', ...agent(`${WRITE_B}; process.exit(7)`)]);
    expect(res.status).toBe(7);
    const snapshot = IterationSnapshot.parse(res.json());
    expect(snapshot.agent.exitCode).toBe(7);
    expect(snapshot.files.map((f) => f.path)).toEqual(['b.txt']);
    expect(git(ws, ['status', '--porcelain'])).toBe('');
    expect(run(['verify', '--run', 'r1', '--json']).status).toBe(0);
  });

  it('exits 128 + the signal number when a signal ended the agent, and records the signal', () => {
    const { run } = setup();
    const res = run([
      ...ITERATE,
      '--json',
      '--',
      ...agent(`${WRITE_B}; process.kill(process.pid, 'SIGTERM')`),
    ]);
    expect(res.status).toBe(128 + constants.signals.SIGTERM);
    const snapshot = IterationSnapshot.parse(res.json());
    expect(snapshot.agent).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
    expect(snapshot.filesChanged).toBe(1);
  });

  it('a command that cannot start is AGENT_NOT_STARTED: the before state is recorded, no snapshot, and the next iterate works', () => {
    const { ws, run } = setup();
    writeFiles(ws, { 'wip.txt': 'uncommitted\n' });
    const res = run([...ITERATE, '--json', '--', join(ws, 'no-such-agent')]);
    expect(res.status).toBe(1);
    expect(
      z.object({ error: z.object({ code: z.literal('AGENT_NOT_STARTED') }) }).parse(res.json()),
    ).toBeTruthy();
    const [record] = z.array(RunRecord).parse(run(['runs', '--json']).json());
    expect(record?.snapshotIds).toEqual([]);
    expect(BeforeState.parse(record?.before).wipSha).toBe(head(ws));
    expect(z.array(Snapshot).parse(run(['list', '--json']).json())).toEqual([]);

    const again = run([...ITERATE, '--json', '--', ...agent(WRITE_B)]);
    expect(again.status, again.stderr).toBe(0);
    expect(IterationSnapshot.parse(again.json()).files.map((f) => f.path)).toEqual(['b.txt']);
  });

  it('an empty CMD is INVALID_ARGUMENT before anything is recorded (no before state, no WIP commit)', () => {
    const { ws, run } = setup();
    writeFiles(ws, { 'wip.txt': 'uncommitted\n' });
    const start = head(ws);
    const res = run([...ITERATE, '--json', '--', '']);
    expect(res.status).toBe(2);
    expect((res.json() as { error: { code: string } }).error.code).toBe('INVALID_ARGUMENT');
    expect(head(ws)).toBe(start);
    expect(run(['runs', '--json']).json()).toEqual([]);
  });

  it('refuses an iteration already captured before it runs the agent', () => {
    const { ws, run } = setup();
    expect(run([...ITERATE, '--', ...agent(WRITE_B)]).status).toBe(0);
    const marker = join(tempDir('agentgate-marker-'), 'ran');
    const res = run([
      ...ITERATE,
      '--json',
      '--',
      ...agent(`require('fs').writeFileSync(${JSON.stringify(marker)}, '')`),
    ]);
    expect(res.status).toBe(1);
    expect((res.json() as { error: { code: string } }).error.code).toBe('ITERATION_EXISTS');
    expect(existsSync(marker)).toBe(false);
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });

  it('refuses a second iterate of the run while one runs its agent, before the second agent starts', async () => {
    const { ws, env, run } = setup();
    const dir = tempDir('agentgate-signals-');
    const [ready, go, second] = ['ready', 'go', 'second'].map((name) => join(dir, name)) as [
      string,
      string,
      string,
    ];
    // The first agent says it runs, then waits for "go" (a file, polled: no clock in the verdict).
    const script = `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(ready)}, ''); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); fs.writeFileSync('b.txt', 'two\\n'); } }, 10);`;
    const { stdout, closed } = await iterateInBackground(ws, env, script, ready);

    const touch = `require('fs').writeFileSync(${JSON.stringify(second)}, '')`;
    for (const iteration of ['1', '2']) {
      const res = run(['iterate', '--run', 'r1', '--iteration', iteration, '--json', '--', ...agent(touch)]);
      expect(res.status, res.stderr).toBe(1);
      expect((res.json() as { error: { code: string } }).error.code).toBe('LOCK_TIMEOUT');
    }
    expect(existsSync(second)).toBe(false);

    writeFiles(dir, { go: '' });
    expect(await closed).toBe(0);
    expect(IterationSnapshot.parse(JSON.parse(stdout())).files.map((f) => f.path)).toEqual(['b.txt']);
    const next = run(['iterate', '--run', 'r1', '--iteration', '2', '--json', '--', ...agent(touch)]);
    expect(next.status, next.stderr).toBe(0);
    expect(existsSync(second)).toBe(true);
  });

  it('after a kill -9 during the agent, iterate is ITERATION_INTERRUPTED (no agent, nothing committed) until after finishes the iteration', async () => {
    const { ws, env, run } = setup();
    const scratch = tempDir('agentgate-killed-');
    const [ready, pidFile, second] = ['ready', 'pid', 'second'].map((f) => join(scratch, f)) as [
      string,
      string,
      string,
    ];
    const script = `const fs = require('fs'); ${WRITE_B}; fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); fs.writeFileSync(${JSON.stringify(ready)}, ''); setInterval(() => {}, 1000);`;
    const { child, closed } = await iterateInBackground(ws, env, script, ready);
    child.kill('SIGKILL');
    // The orphaned agent (which holds the dead call's output pipes) is ended too, as the message asks.
    const orphan = Number(readFileSync(pidFile, 'utf8'));
    process.kill(orphan, 'SIGKILL');
    await closed;
    await until(() => !isAlive(orphan));
    const start = head(ws);
    const touch = `require('fs').writeFileSync(${JSON.stringify(second)}, '')`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = run(['iterate', '--run', 'r1', '--iteration', '2', '--json', '--', ...agent(touch)]);
      expect(res.status, res.stderr).toBe(1);
      const error = (res.json() as { error: { code: string; details: { iteration: number } } }).error;
      expect(error).toMatchObject({ code: 'ITERATION_INTERRUPTED', details: { iteration: 1 } });
      expect(existsSync(second)).toBe(false);
      expect(head(ws)).toBe(start);
      expect(git(ws, ['status', '--porcelain'])).toBe('?? b.txt');
    }
    const finished = run(['after', ...ITERATE.slice(1), '--json']);
    expect(finished.status, finished.stderr).toBe(0);
    expect(Snapshot.parse(finished.json()).files.map((f) => f.path)).toEqual(['b.txt']);
    const next = run(['iterate', '--run', 'r1', '--iteration', '2', '--json', '--', ...agent(touch)]);
    expect(next.status, next.stderr).toBe(0);
    expect(existsSync(second)).toBe(true);
  });

  it('an after killed between saving its snapshot and linking it: the retry marks the before state used, and the next iterate runs', async () => {
    const { ws, home, env, run } = setup();
    const scratch = tempDir('agentgate-killed-');
    const [ready, pidFile] = ['ready', 'pid'].map((f) => join(scratch, f)) as [string, string];
    const script = `const fs = require('fs'); ${WRITE_B}; fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); fs.writeFileSync(${JSON.stringify(ready)}, ''); setInterval(() => {}, 1000);`;
    const { child, closed } = await iterateInBackground(ws, env, script, ready);
    const dead = child.pid as number;
    child.kill('SIGKILL');
    const orphan = Number(readFileSync(pidFile, 'utf8'));
    process.kill(orphan, 'SIGKILL');
    await closed;
    await until(() => !isAlive(orphan));
    const finished = run(['after', ...ITERATE.slice(1), '--json']);
    expect(finished.status, finished.stderr).toBe(0);
    // What that after leaves when killed after saving its snapshot: no link, the before state
    // unused, and its repository lock behind (the dead iterate's pid stands in for it).
    const recordPath = join(home, 'runs', 'r1.json');
    const record = RunRecord.parse(JSON.parse(readFileSync(recordPath, 'utf8')));
    writeFileSync(recordPath, JSON.stringify({ ...record, snapshotIds: [], beforeUsedBy: null }));
    const lock = {
      pid: dead,
      hostname: hostname(),
      createdAt: new Date().toISOString(),
      token: 'killed',
      purpose: 'after',
    };
    writeFileSync(join(ws, '.git', 'agentgate.lock'), JSON.stringify(lock));

    const retried = run(['after', ...ITERATE.slice(1), '--json']);
    expect(retried.status, retried.stderr).toBe(0);
    expect(Snapshot.parse(retried.json()).id).toBe(Snapshot.parse(finished.json()).id);
    expect(RunRecord.parse(JSON.parse(readFileSync(recordPath, 'utf8'))).beforeUsedBy).toMatchObject({
      iteration: 1,
    });
    const next = run(['iterate', '--run', 'r1', '--iteration', '2', '--json', '--', ...agent('0')]);
    expect(next.status, next.stderr).toBe(0);
  });

  it('forwards SIGTERM to the agent and still records the iteration', async () => {
    const { ws, env } = setup();
    const ready = join(tempDir('agentgate-ready-'), 'ready');
    const script = [
      `const fs = require('fs');`,
      `process.on('SIGTERM', () => { fs.writeFileSync('got.txt', 'SIGTERM\\n'); process.exit(5); });`,
      `fs.writeFileSync(${JSON.stringify(ready)}, '');`,
      `setInterval(() => {}, 1000);`,
    ].join(' ');
    const { child, stdout, closed } = await iterateInBackground(ws, env, script, ready);
    child.kill('SIGTERM');
    expect(await closed).toBe(5);
    const snapshot = IterationSnapshot.parse(JSON.parse(stdout()));
    expect(snapshot.agent).toMatchObject({ exitCode: 5, signal: null });
    expect(snapshot.files.map((f) => f.path)).toEqual(['got.txt']);
  });

  it('records the same tree, message, stats and patch as before + the same work + after', () => {
    const work = `const fs = require('fs'); fs.writeFileSync('a.txt', 'changed\\n'); fs.writeFileSync('c.bin', Buffer.from([0, 1, 2]))`;
    const one = setup();
    const clone = join(tempDir('agentgate-clone-'), 'ws');
    git(tempDir(), ['clone', '-q', one.ws, clone]);
    const two = setup(clone);
    const iterated = IterationSnapshot.parse(one.run([...ITERATE, '--json', '--', ...agent(work)]).json());
    expect(two.run(['before', '--run', 'r1']).status).toBe(0);
    execFileSync(process.execPath, ['-e', work], { cwd: two.ws });
    const after = Snapshot.parse(two.run(['after', ...ITERATE.slice(1), '--json']).json());
    const { agent: outcome, ...rest } = iterated;
    expect(outcome.exitCode).toBe(0);
    // Commit ids differ only by their time stamps: compare everything else, and the trees.
    const shape = (s: Snapshot) => ({
      ...s,
      id: '',
      createdAt: '',
      patchPath: '',
      workspace: '',
      afterSha: '',
    });
    expect(shape(rest)).toEqual(shape(after));
    expect(git(one.ws, ['rev-parse', `${iterated.afterSha}^{tree}`])).toBe(
      git(two.ws, ['rev-parse', `${after.afterSha}^{tree}`]),
    );
    expect(readFileSync(iterated.patchPath as string)).toEqual(readFileSync(after.patchPath as string));
  });
});
