/**
 * Bad input through the CLI, table-driven: every row gives its documented code and exit status, a
 * message that says what to do (non-empty, no stack trace), and changes nothing on disk (the home's
 * whole tree and the workspace's files, HEAD, refs and index hash the same before and after).
 * Rows alternate between human output (stderr `agentgate-snapshot: CODE: message`) and `--json`.
 * Two valid extremes close it: a 1 MB task prompt and one full of control characters.
 */
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import { runCli, runCliIntoClosedPipe } from '../helpers/cli.js';
import { git, gitRaw, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { diskState, report, STACK_LINE } from './support.js';

interface Fixture {
  home: string;
  ws: string;
  snapshots: Snapshot[];
}

/** A workspace with a run of two iterations, in a home of its own. */
function makeFixture(): Fixture {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  const home = tempDir('agentgate-bad-home-');
  const cli = (args: string[]) => runCli([...args, '-C', ws, '--home', home, '--json']);
  const snapshots: Snapshot[] = [];
  for (const iteration of [1, 2]) {
    expect(cli(['before', '--run', 'r1']).status).toBe(0);
    writeFiles(ws, { 'a.txt': `iteration ${iteration}\n` });
    const res = cli(['after', '--run', 'r1', '--iteration', String(iteration)]);
    expect(res.status, res.stdout).toBe(0);
    snapshots.push(res.json() as Snapshot);
  }
  // A third iteration that changes nothing shares its after SHA with the second.
  expect(cli(['before', '--run', 'r1']).status).toBe(0);
  const unchanged = cli(['after', '--run', 'r1', '--iteration', '3']);
  expect(unchanged.status, unchanged.stdout).toBe(0);
  snapshots.push(unchanged.json() as Snapshot);
  expect(cli(['checkpoint', 'track']).status).toBe(0);
  return { home, ws, snapshots };
}

/** A copy of the fixture that a row may damage. */
function copyOf(f: Fixture): Fixture {
  const root = tempDir('agentgate-bad-copy-');
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  cpSync(f.ws, ws, { recursive: true, verbatimSymlinks: true });
  cpSync(f.home, home, { recursive: true, verbatimSymlinks: true });
  // Snapshots name their workspace; the copy's point at the copy.
  for (const s of f.snapshots) {
    const path = join(home, 'snapshots', `${s.id}.json`);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(f.ws, ws).replaceAll(f.home, home));
  }
  const runPath = join(home, 'runs', 'r1.json');
  writeFileSync(runPath, readFileSync(runPath, 'utf8').replaceAll(f.ws, ws));
  return { home, ws, snapshots: f.snapshots };
}

/** Two blobs whose ids share their first 4 hex digits: an ambiguous prefix in the repository. */
function ambiguousBlobs(ws: string): string {
  const seen = new Map<string, string>();
  for (let i = 0; ; i++) {
    const content = `blob ${i}\n`;
    const id = createHash('sha1')
      .update(`blob ${Buffer.byteLength(content)}\0${content}`)
      .digest('hex');
    const prefix = id.slice(0, 4);
    const other = seen.get(prefix);
    if (other !== undefined && other !== content) {
      for (const c of [other, content]) gitRaw(ws, ['hash-object', '-w', '--stdin'], c);
      return prefix;
    }
    seen.set(prefix, content);
  }
}

interface Row {
  name: string;
  args: (f: Fixture) => string[];
  code: string;
  status: 1 | 2;
  /** Damages a copy of the fixture first (store files, config); the row runs against the copy. */
  damage?: (f: Fixture) => void;
  /** The row names its own workspace with -C. */
  ownWorkspace?: boolean;
}

const LONG = 'a'.repeat(200);

const ROWS: Row[] = [
  // Unsafe or empty run ids.
  { name: 'run id with ..', args: () => ['before', '--run', '../x'], code: 'INVALID_ID', status: 1 },
  { name: 'run id with /', args: () => ['before', '--run', 'a/b'], code: 'INVALID_ID', status: 1 },
  { name: 'empty run id', args: () => ['before', '--run', ''], code: 'INVALID_ARGUMENT', status: 2 },
  // A file or directory named by nothing.
  { name: 'empty patch file', args: () => ['patch', 'x', '-o', ''], code: 'INVALID_ARGUMENT', status: 2 },
  { name: 'empty report file', args: () => ['report', '--output='], code: 'INVALID_ARGUMENT', status: 2 },
  { name: 'run id that is an option', args: () => ['before', '--run=-rf'], code: 'INVALID_ID', status: 1 },
  { name: 'run id of 200 characters', args: () => ['before', '--run', LONG], code: 'INVALID_ID', status: 1 },
  {
    name: 'run id ending in .lock',
    args: () => ['after', '--run', 'x.lock', '--iteration', '1'],
    code: 'INVALID_ID',
    status: 1,
  },
  { name: 'run id with .. in list', args: () => ['list', '--run', '../runs'], code: 'INVALID_ID', status: 1 },
  { name: 'run id with / in verify', args: () => ['verify', '--run', 'a/b'], code: 'INVALID_ID', status: 1 },
  // Unsafe, empty or unknown snapshot ids and SHAs.
  { name: 'snapshot id with ..', args: () => ['show', '../x'], code: 'INVALID_ID', status: 1 },
  { name: 'empty snapshot id', args: () => ['show', ''], code: 'INVALID_ID', status: 1 },
  { name: 'snapshot id with /', args: () => ['delete', 'a/b'], code: 'INVALID_ID', status: 1 },
  { name: 'snapshot id of 200 characters', args: () => ['patch', LONG], code: 'INVALID_ID', status: 1 },
  {
    name: 'snapshot id ending in .lock',
    args: () => ['cherry-pick', 'x.lock'],
    code: 'INVALID_ID',
    status: 1,
  },
  { name: 'snapshot id that is an option', args: () => ['show', '-rf'], code: 'USAGE', status: 2 },
  {
    name: 'unknown snapshot id',
    args: () => ['show', 'snap-doesnotexist'],
    code: 'SNAPSHOT_NOT_FOUND',
    status: 1,
  },
  {
    name: 'unknown after SHA',
    args: () => ['show', 'deadbeefdeadbeef'],
    code: 'SNAPSHOT_NOT_FOUND',
    status: 1,
  },
  {
    name: 'unknown revision',
    args: () => ['stats', 'deadbeefdeadbeef', 'HEAD'],
    code: 'REVISION_NOT_FOUND',
    status: 1,
  },
  {
    name: 'ambiguous SHA prefix (objects)',
    args: (f) => ['stats', ambiguousBlobs(f.ws), 'HEAD'],
    code: 'AMBIGUOUS_ID',
    status: 1,
  },
  { name: 'ambiguous snapshot prefix', args: () => ['show', 'snap-'], code: 'AMBIGUOUS_ID', status: 1 },
  { name: 'ambiguous id prefix', args: () => ['show', 'snap-'], code: 'AMBIGUOUS_ID', status: 1 },
  {
    name: 'unknown before SHA',
    args: () => ['after', '--run', 'r1', '--iteration', '9', '--before', 'deadbeefdeadbeef'],
    code: 'REVISION_NOT_FOUND',
    status: 1,
  },
  {
    name: 'unknown checkpoint',
    args: () => ['checkpoint', 'restore', 'deadbeefdeadbeef'],
    code: 'CHECKPOINT_NOT_FOUND',
    status: 1,
  },
  {
    name: 'checkpoint that is an option',
    args: () => ['checkpoint', 'revert', '--', '--output=/tmp/x'],
    code: 'CHECKPOINT_NOT_FOUND',
    status: 1,
  },
  // Iterations.
  {
    name: 'negative iteration',
    args: () => ['after', '--run', 'r1', '--iteration=-1'],
    code: 'INVALID_ARGUMENT',
    status: 2,
  },
  {
    name: 'non-numeric iteration',
    args: () => ['after', '--run', 'r1', '--iteration', 'three'],
    code: 'INVALID_ARGUMENT',
    status: 2,
  },
  {
    name: 'fractional iteration',
    args: () => ['after', '--run', 'r1', '--iteration', '1.5'],
    code: 'INVALID_ARGUMENT',
    status: 2,
  },
  {
    name: 'huge iteration',
    args: () => ['after', '--run', 'r1', '--iteration', '99999999999999999999'],
    code: 'INVALID_ARGUMENT',
    status: 2,
  },
  {
    name: 'iteration already captured',
    args: () => ['after', '--run', 'r1', '--iteration', '1'],
    code: 'ITERATION_EXISTS',
    status: 1,
  },
  // Workspaces.
  {
    name: 'workspace that does not exist',
    args: (f) => ['before', '--run', 'r9', '-C', join(f.home, 'nowhere')],
    code: 'WORKSPACE_NOT_FOUND',
    status: 1,
    ownWorkspace: true,
  },
  {
    name: 'workspace that is a file',
    args: (f) => ['checkpoint', 'track', '-C', join(f.ws, 'a.txt')],
    code: 'WORKSPACE_NOT_FOUND',
    status: 1,
    ownWorkspace: true,
  },
  {
    name: 'workspace that is not a repository',
    args: (f) => ['stats', 'HEAD', 'HEAD', '-C', join(f.home, 'runs')],
    code: 'NOT_A_REPOSITORY',
    status: 1,
    ownWorkspace: true,
  },
  {
    name: 'workspace that is /',
    args: () => ['before', '--run', 'r9', '-C', '/'],
    code: 'UNSAFE_WORKSPACE',
    status: 1,
    ownWorkspace: true,
  },
  // A damaged store.
  {
    name: 'truncated snapshot file',
    damage: (f) => truncate(join(f.home, 'snapshots', `${f.snapshots[0]?.id}.json`)),
    args: (f) => ['show', f.snapshots[0]?.id as string],
    code: 'STORE_CORRUPT',
    status: 1,
  },
  {
    name: 'snapshot file of the wrong shape',
    damage: (f) => writeFileSync(join(f.home, 'snapshots', `${f.snapshots[1]?.id}.json`), '{"id": 42}\n'),
    args: (f) => ['patch', f.snapshots[1]?.id as string],
    code: 'STORE_CORRUPT',
    status: 1,
  },
  {
    name: 'truncated run record (after)',
    damage: (f) => truncate(join(f.home, 'runs', 'r1.json')),
    args: () => ['after', '--run', 'r1', '--iteration', '9'],
    code: 'STORE_CORRUPT',
    status: 1,
  },
  {
    name: 'truncated run record (before)',
    damage: (f) => truncate(join(f.home, 'runs', 'r1.json')),
    args: () => ['before', '--run', 'r1'],
    code: 'STORE_CORRUPT',
    status: 1,
  },
  {
    name: 'run record pointing at a missing snapshot',
    damage: (f) => dropSnapshotFile(f),
    args: () => ['stats', '--run', 'r1'],
    code: 'STORE_CORRUPT',
    status: 1,
  },
  {
    name: 'patch of a linked snapshot whose file is gone',
    damage: (f) => dropSnapshotFile(f),
    args: (f) => ['patch', f.snapshots[1]?.id as string],
    code: 'SNAPSHOT_NOT_FOUND',
    status: 1,
  },
  // Configuration.
  {
    name: 'config value of the wrong type',
    damage: (f) => writeFileSync(join(f.home, 'config.yaml'), 'lockTimeoutMs: soon\n'),
    args: () => ['runs'],
    code: 'CONFIG_INVALID',
    status: 1,
  },
  {
    name: 'config with an unknown key',
    damage: (f) => writeFileSync(join(f.home, 'config.yaml'), 'lockTimeout: 5\n'),
    args: () => ['list'],
    code: 'CONFIG_INVALID',
    status: 1,
  },
  {
    name: 'config that is not YAML',
    damage: (f) => writeFileSync(join(f.home, 'config.yaml'), 'a: [unclosed\n'),
    args: () => ['before', '--run', 'r1'],
    code: 'CONFIG_INVALID',
    status: 1,
  },
  {
    name: '--config file that does not exist',
    args: (f) => ['runs', '--config', join(f.home, 'missing.yaml')],
    code: 'CONFIG_INVALID',
    status: 1,
  },
  // Missing or unknown options and commands.
  { name: 'after without --run', args: () => ['after', '--iteration', '1'], code: 'USAGE', status: 2 },
  { name: 'after without --iteration', args: () => ['after', '--run', 'r1'], code: 'USAGE', status: 2 },
  { name: 'show without an id', args: () => ['show'], code: 'USAGE', status: 2 },
  {
    name: 'stats with three revisions',
    args: () => ['stats', 'HEAD~1', 'HEAD', 'HEAD'],
    code: 'USAGE',
    status: 2,
  },
  {
    name: 'stats of a revision that is no snapshot id',
    args: () => ['stats', 'HEAD'],
    code: 'SNAPSHOT_NOT_FOUND',
    status: 1,
  },
  {
    name: 'checkpoint restore without a hash',
    args: () => ['checkpoint', 'restore'],
    code: 'USAGE',
    status: 2,
  },
  { name: '--run without a value', args: () => ['before', '--run'], code: 'USAGE', status: 2 },
  { name: 'unknown option', args: () => ['before', '--run', 'r1', '--force'], code: 'USAGE', status: 2 },
  { name: 'unknown command', args: () => ['snapshot'], code: 'USAGE', status: 2 },
  { name: 'unknown checkpoint subcommand', args: () => ['checkpoint', 'rewind'], code: 'USAGE', status: 2 },
  {
    name: 'both --task and --task-file',
    args: (f) => [
      'after',
      '--run',
      'r1',
      '--iteration',
      '9',
      '--task',
      'x',
      '--task-file',
      join(f.ws, 'a.txt'),
    ],
    code: 'USAGE',
    status: 2,
  },
  {
    name: '--task-file that does not exist',
    args: (f) => ['after', '--run', 'r1', '--iteration', '9', '--task-file', join(f.home, 'no-task.md')],
    code: 'INVALID_ARGUMENT',
    status: 2,
  },
  {
    name: 'bad --on-dirty',
    args: () => ['before', '--run', 'r1', '--on-dirty', 'ignore'],
    code: 'INVALID_ARGUMENT',
    status: 2,
  },
  {
    name: 'bad --keep',
    args: () => ['checkpoint', 'gc', '--keep', 'all'],
    code: 'INVALID_ARGUMENT',
    status: 2,
  },
];

function truncate(path: string): void {
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.slice(0, Math.floor(text.length / 2)));
}

/** The state a user leaves who removed a snapshot file by hand: the run still links it. */
function dropSnapshotFile(f: Fixture): void {
  rmSync(join(f.home, 'snapshots', `${f.snapshots[1]?.id}.json`));
}

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
}, 60_000);

describe('bad input through the CLI', () => {
  it(`has at least 25 rows (${ROWS.length})`, () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(25);
  });

  it.each(ROWS.map((row, i) => [row.name, row, i] as const))('%s', (_name, row, i) => {
    const f = row.damage ? copyOf(fixture) : fixture;
    row.damage?.(f);
    const args = row.args(f);
    const json = i % 2 === 1;
    const full = [
      ...args.slice(0, args.indexOf('--') < 0 ? args.length : args.indexOf('--')),
      ...(row.ownWorkspace ? [] : ['-C', f.ws]),
      '--home',
      f.home,
      ...(json ? ['--json'] : []),
      ...(args.indexOf('--') < 0 ? [] : args.slice(args.indexOf('--'))),
    ];
    const before = diskState(f.home, f.ws);
    const res = runCli(full, { cwd: f.ws });

    expect(res.status, `${full.join(' ')}\n${res.stdout}${res.stderr}`).toBe(row.status);
    expect(`${res.stdout}${res.stderr}`).not.toMatch(STACK_LINE);
    let code: string;
    let message: string;
    if (json) {
      expect(res.stderr).toBe('');
      ({ code, message } = (JSON.parse(res.stdout) as { error: { code: string; message: string } }).error);
    } else {
      expect(res.stdout).toBe('');
      const match = /^agentgate-snapshot: ([A-Z_]+): (.+)$/m.exec(res.stderr);
      expect(match, res.stderr).not.toBeNull();
      [, code = '', message = ''] = match as RegExpExecArray;
    }
    expect(code, message).toBe(row.code);
    expect(message.trim().length).toBeGreaterThan(10);
    expect(diskState(f.home, f.ws), 'nothing changed on disk').toEqual(before);
  });

  it('reports', () => {
    report('bad-input', { rows: ROWS.length, codes: [...new Set(ROWS.map((r) => r.code))].sort() });
  });
});

describe('valid extremes', () => {
  /** The commit message's Task line: present, one line, at most 100 characters, nothing a terminal would act on. */
  function taskLine(snapshot: Snapshot, ws: string): string {
    const message = git(ws, ['cat-file', 'commit', snapshot.afterSha]).split('\n\n').slice(1).join('\n\n');
    expect(message).toBe(snapshot.commitMessage.replace(/\n$/, ''));
    const lines = snapshot.commitMessage.split('\n');
    expect(lines[0]).toBe(`[agentgate] Run ${snapshot.runId} iteration ${snapshot.iteration}`);
    const task = lines.find((l) => l.startsWith('Task: ')) as string;
    expect(task).toBeDefined();
    // No C0 or C1 control, no bidirectional override or isolate.
    // eslint-disable-next-line no-control-regex
    expect(task).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect([...task.slice('Task: '.length)].length).toBeLessThanOrEqual(100);
    return task.slice('Task: '.length);
  }

  it('a 1 MB task prompt: stored as the first 100 characters, on one line', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-big-task-');
    const taskFile = join(home, 'task.md');
    writeFileSync(taskFile, `Fix the parser.\n${'Explain every step in detail. '.repeat(36_000)}`);
    expect(readFileSync(taskFile).length).toBeGreaterThan(1_000_000);
    expect(runCli(['before', '--run', 'big', '-C', ws, '--home', home]).status).toBe(0);
    writeFiles(ws, { 'a.txt': 'two\n' });
    const res = runCli([
      'after',
      '--run',
      'big',
      '--iteration',
      '1',
      '--task-file',
      taskFile,
      '-C',
      ws,
      '--home',
      home,
      '--json',
    ]);
    expect(res.status, res.stdout).toBe(0);
    const task = taskLine(res.json() as Snapshot, ws);
    expect(task.startsWith('Fix the parser. Explain every step')).toBe(true);
    expect([...task].length).toBe(100);
    expect(runCli(['verify', '--all', '--home', home]).status).toBe(0);
  });

  it('control characters in the task and the gate: a sane one-line Task', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-ctrl-task-');
    const nasty = 'Fix\u0007 the\r\nbug\u001b[31m now\u009b2J\ttab\u0000nul\u007fdel \u202Eevil';
    const taskFile = join(home, 'task.md');
    writeFileSync(taskFile, nasty);
    expect(runCli(['before', '--run', 'ctrl', '-C', ws, '--home', home]).status).toBe(0);
    writeFiles(ws, { 'a.txt': 'two\n' });
    const res = runCli([
      'after',
      '--run',
      'ctrl',
      '--iteration',
      '1',
      '--task-file',
      taskFile,
      '--gate',
      'gates\u001b[2J.yaml\nInjected: trailer',
      '-C',
      ws,
      '--home',
      home,
      '--json',
    ]);
    expect(res.status, res.stdout).toBe(0);
    const snapshot = res.json() as Snapshot;
    const task = taskLine(snapshot, ws);
    expect(task).toMatch(/^Fix +the bug \[31m now 2J tab nul del +evil$/);
    // The gate cannot smuggle in a line of its own (a trailer, say).
    expect(snapshot.commitMessage.split('\n').filter((l) => l.startsWith('Injected:'))).toEqual([]);
  });

  it("a reader that closes the pipe early (| head): no stack trace, no error, the command's own status", () => {
    const { home, id } = snapshotWithLargePatch();
    for (const args of [['patch', id], ['patch', id, '--json'], ['show', id, '--json'], ['list']]) {
      const piped = runCliIntoClosedPipe([...args, '--home', home], home);
      expect(piped.status, args.join(' ')).toBe(0);
      expect(piped.stderr, args.join(' ')).toBe('');
    }
    report('bad-input', { valid: ['1 MB task prompt', 'control characters', 'pipe closed early'] });
  });

  it('serve ends quietly when its reader closes stdout: exit 0, nothing on stderr', () => {
    const { ws, home, id } = snapshotWithLargePatch();
    const requests = join(home, 'requests.jsonl');
    const lines = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify({ id: i, command: i % 2 ? 'patch' : 'show', args: [id] }),
    );
    writeFileSync(requests, `${lines.join('\n')}\n`);
    const piped = runCliIntoClosedPipe(['serve', '-C', ws, '--home', home], home, requests);
    expect(piped.stderr).toBe('');
    expect(piped.status).toBe(0);
  });
});

/** A home with one snapshot whose patch is much larger than a pipe's buffer. */
function snapshotWithLargePatch(): { ws: string; home: string; id: string } {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  const home = tempDir('agentgate-pipe-');
  expect(runCli(['before', '--run', 'pipe', '-C', ws, '--home', home]).status).toBe(0);
  writeFiles(ws, { 'big.txt': 'a line that makes the patch large\n'.repeat(40_000) });
  const res = runCli(['after', '--run', 'pipe', '--iteration', '1', '-C', ws, '--home', home, '--json']);
  return { ws, home, id: (res.json() as Snapshot).id };
}
