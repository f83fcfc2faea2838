/**
 * The built CLI as a child process: every run-snapshot command with --json prints exactly one JSON
 * document of its schema; without it, plain text for people (no ANSI escapes off a TTY or with
 * NO_COLOR); errors and usage errors in the contract's format and exit codes; --help everywhere.
 * Each test has its own workspace and AGENTGATE_HOME; state passes between processes only
 * through the store, so persistence across processes is exercised throughout.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { RunRecord } from '../../types/run.js';
import { BeforeState, CommitInfo, DiffStats, Snapshot } from '../../types/snapshot.js';
import { VerifyReport } from '../../types/verify.js';
import { CLI, runCli, type CliResult } from '../helpers/cli.js';
import { encodeBytes } from '../../src/fs/path-bytes.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { oracleChanges } from '../helpers/diff-oracle.js';
import { fingerprint, messageOf } from '../helpers/snapshotter.js';

// eslint-disable-next-line no-control-regex -- the escape character is what we look for
const ANSI = /\u001b\[/;
const STACK = /^\s+at /m;

/** Runs the CLI in `cwd` with its own home; every call is a new process. */
function cliFor(cwd: string, home = tempDir('agentgate-home-')) {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}): CliResult =>
    runCli(args, { cwd, env: { AGENTGATE_HOME: home, ...env } });
  return { home, run };
}

/** Exit 0, nothing on stderr, and the whole stdout is one JSON document of `schema`. */
function ok<S extends z.core.$ZodType>(res: CliResult, schema: S): z.output<S> {
  expect(res.status, res.stdout + res.stderr).toBe(0);
  expect(res.stderr).toBe('');
  return z.parse(schema, res.json());
}

/** Exit 1 (2 for usage), `agentgate-snapshot: CODE: message` on stderr, no stack, nothing on stdout. */
function failsWith(res: CliResult, code: string, status = 1): void {
  expect(res.status, res.stdout + res.stderr).toBe(status);
  expect(res.stdout).toBe('');
  expect(res.stderr).toMatch(new RegExp(`^agentgate-snapshot: ${code}: \\S.*\\n$`));
  expect(res.stderr).not.toMatch(STACK);
}

/** With --json: `{"error":{"code","message"}}` as the only stdout. */
function failsWithJson(res: CliResult, code: string, status = 1): void {
  expect(res.status, res.stdout + res.stderr).toBe(status);
  const doc = z
    .object({ error: z.object({ code: z.literal(code), message: z.string().min(1) }) })
    .parse(res.json());
  expect(doc.error.message).not.toMatch(STACK);
  expect(res.stderr).toBe('');
}

describe('CLI run snapshots', () => {
  it('runs iterations across processes, every command printing one JSON document of its schema', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    git(dir, ['branch', 'release']);
    const cwd = tempDir('agentgate-cwd-');
    const { home, run } = cliFor(cwd);
    const ws = ['-C', dir, '--json'];

    const b1 = ok(run(['before', '--run', 'cli-run', ...ws]), BeforeState);
    expect(b1).toMatchObject({ sha: head(dir), branch: 'main', headState: 'branch', isDirty: false });
    writeFiles(dir, { 'a.txt': 'a\n', 'f.txt': 'base\nmore\n' });
    const taskFile = join(tempDir('agentgate-task-'), 'task.md');
    writeFileSync(taskFile, `# Fix it\n\n${'word '.repeat(220_000)}`);
    const s1 = ok(
      run([
        'after',
        '--run',
        'cli-run',
        '--iteration',
        '1',
        '--task-file',
        taskFile,
        '--gate',
        'gates.yaml',
        ...ws,
      ]),
      Snapshot,
    );
    expect(s1).toMatchObject({
      beforeSha: b1.sha,
      afterSha: head(dir),
      filesChanged: 2,
      insertions: 2,
      deletions: 0,
    });
    expect(s1.patchPath).toBe(join(home, 'artifacts', 'cli-run', 'iteration-1', 'patch.diff'));
    const task = messageOf(dir, s1.afterSha).split('\n')[2] as string;
    expect(task).toBe(`Task: ${`# Fix it ${'word '.repeat(20)}`.slice(0, 100)}`);

    for (const key of [s1.id, s1.afterSha, s1.afterSha.slice(0, 9)])
      expect(ok(run(['show', key, ...ws]), Snapshot)).toEqual(s1);

    const b2 = ok(run(['before', '--run', 'cli-run', ...ws]), BeforeState);
    const s2 = ok(
      run(['after', '--run', 'cli-run', '--iteration', '2', '--task', 'nothing to do', ...ws]),
      Snapshot,
    );
    expect(s2).toMatchObject({ beforeSha: b2.sha, afterSha: b2.sha, filesChanged: 0, patchPath: null });
    expect(s2.id).not.toBe(s1.id);
    // Both snapshots now end at the same commit: its SHA names the one that made it.
    expect(ok(run(['show', s1.afterSha, ...ws]), Snapshot)).toEqual(s1);

    expect(ok(run(['list', ...ws]), z.array(Snapshot))).toEqual([s1, s2]);
    expect(ok(run(['list', '--run', 'cli-run', ...ws]), z.array(Snapshot))).toEqual([s1, s2]);
    const runs = ok(run(['runs', ...ws]), z.array(RunRecord));
    expect(runs.map((r) => [r.runId, r.snapshotIds])).toEqual([['cli-run', [s1.id, s2.id]]]);

    const stats = ok(run(['stats', b1.sha, 'HEAD', ...ws]), DiffStats);
    expect(stats.files).toEqual(oracleChanges(dir, b1.sha, s1.afterSha));
    expect(stats).toMatchObject({ filesChanged: 2, insertions: 2, deletions: 0 });

    const report = ok(run(['verify', '--run', 'cli-run', ...ws]), VerifyReport);
    expect(report.ok).toBe(true);
    expect(ok(run(['verify', s1.id, ...ws]), VerifyReport).ok).toBe(true);
    expect(ok(run(['verify', '--all', ...ws]), VerifyReport).checks.length).toBe(report.checks.length);

    const artifact = readFileSync(s1.patchPath as string, 'utf8');
    expect(ok(run(['patch', s1.id, ...ws]), z.object({ id: z.string(), diff: z.string() }))).toEqual({
      id: s1.id,
      diff: artifact,
    });
    const out = join(tempDir('agentgate-out-'), 'out.diff');
    expect(
      ok(run(['patch', s1.id, '-o', out, ...ws]), z.object({ id: z.string(), path: z.string() })),
    ).toEqual({ id: s1.id, path: out });
    expect(readFileSync(out, 'utf8')).toBe(artifact);
    // A link to our stdout (a pipe here) is written through, as `-o /dev/stdout` is: the link stays.
    const viaLink = join(tempDir('agentgate-out-'), 'stdout');
    symlinkSync('/proc/self/fd/1', viaLink);
    expect(run(['patch', s1.id, '-o', viaLink, ...ws]).stdout.startsWith(artifact)).toBe(true);
    expect(lstatSync(viaLink).isSymbolicLink()).toBe(true);
    // A relative FILE is the caller's directory's, printed as the absolute path written.
    expect(ok(run(['patch', s1.id, '-o', 'rel.diff', ...ws]), z.object({ path: z.string() })).path).toBe(
      join(cwd, 'rel.diff'),
    );

    const picked = ok(run(['cherry-pick', s1.id, '--onto', 'release', ...ws]), CommitInfo);
    expect(git(dir, ['rev-parse', 'release'])).toBe(picked.sha);
    expect(git(dir, ['rev-parse', `${picked.sha}^{tree}`])).toBe(
      git(dir, ['rev-parse', `${s1.afterSha}^{tree}`]),
    );

    expect(ok(run(['delete', s2.id, ...ws]), z.object({ deleted: z.literal(s2.id) }))).toEqual({
      deleted: s2.id,
    });
    expect(ok(run(['list', ...ws]), z.array(Snapshot))).toEqual([s1]);
    failsWithJson(run(['show', s2.id, ...ws]), 'SNAPSHOT_NOT_FOUND');
  });

  it('prints readable text without --json, and no ANSI escapes off a TTY or with NO_COLOR', () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const { run } = cliFor(dir);
    const outputs: string[] = [];
    for (const args of [
      ['before', '--run', 'h'],
      ['after', '--run', 'h', '--iteration', '1', '--task', 'edit f'],
    ]) {
      const res = run(args, { NO_COLOR: undefined });
      expect(res.status, res.stderr).toBe(0);
      outputs.push(res.stdout);
      writeFiles(dir, { 'g.txt': 'g\n' });
    }
    const id = /Snapshot (\S+):/.exec(outputs[1] as string)?.[1] as string;
    expect(outputs[1]).toMatch(/added\s+1\s+0\s+g\.txt/);
    // Off a TTY there is no colour even without NO_COLOR; verify (the most colourful) also runs with it.
    const commands = [
      ['show', id],
      ['list'],
      ['runs'],
      ['stats', 'HEAD~1', 'HEAD'],
      ['verify', '--run', 'h'],
      ['patch', id],
    ];
    const runs = [
      ...commands.map((c) => [c, { NO_COLOR: undefined }] as const),
      [['verify', '--run', 'h'], { NO_COLOR: '1' }] as const,
      [['delete', id], { NO_COLOR: undefined }] as const,
    ];
    for (const [args, env] of runs) {
      const res = run([...args], env);
      expect(res.status, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout.trim().length).toBeGreaterThan(0);
      expect(() => JSON.parse(res.stdout)).toThrow();
      outputs.push(res.stdout);
    }
    for (const text of outputs) expect(text).not.toMatch(ANSI);
    expect(outputs.join('\n')).toContain('All 13 checks passed.'); // the base 8, commit-message, task, branch, files and trailers
    expect(outputs.join('\n')).toContain('diff --git a/g.txt b/g.txt');
  });

  it('shows names with control characters escaped, so no name can start a line of its own (a CI workflow command)', () => {
    const dir = repoWithCommit();
    const { run } = cliFor(dir);
    ok(run(['before', '--run', 'names', '--json']), BeforeState);
    const evil = 'x\n::warning::injected\u001b]0;title\u0007';
    writeFiles(dir, { [evil]: 'x\n' });
    const snap = ok(run(['after', '--run', 'names', '--iteration', '0', '--json']), Snapshot);
    expect(snap.files.map((f) => f.path)).toEqual([evil]);
    for (const args of [['show', snap.id], ['stats', snap.id], ['list'], ['verify', '--run', 'names']]) {
      const out = run(args);
      expect(out.status, out.stderr).toBe(0);
      if (args[0] === 'show' || args[0] === 'stats')
        expect(out.stdout).toContain('x\\n::warning::injected\\x1b]0;title\\x07');
      expect(out.stdout.split('\n').some((line) => line.startsWith('::'))).toBe(false);
      expect(out.stdout).not.toContain('\u001b');
    }
  });

  it('verify exits 1 on a tampered artifact (one JSON document with --json); patch regenerates a deleted one byte for byte', () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const { run } = cliFor(dir);
    run(['before', '--run', 'v']);
    writeFiles(dir, { 'f.txt': 'changed\n', 'n.txt': 'new\n' });
    const snap = ok(run(['after', '--run', 'v', '--iteration', '1', '--json']), Snapshot);
    const path = snap.patchPath as string;
    const original = readFileSync(path, 'utf8');

    writeFileSync(path, `${original}# tampered\n`);
    const report = VerifyReport.parse(run(['verify', snap.id, '--json']).json());
    const res = run(['verify', snap.id, '--json']);
    expect(res.status).toBe(3);
    expect(VerifyReport.parse(res.json())).toEqual(report);
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['patch-artifact']);
    const human = run(['verify', snap.id]);
    expect(human.status).toBe(3);
    expect(human.stdout).toMatch(/FAIL\s+\S+\s+patch-artifact/);
    expect(run(['patch', snap.id]).stdout).toBe(original);

    rmSync(path);
    expect(run(['verify', '--run', 'v']).status).toBe(3);
    const regenerated = run(['patch', snap.id]);
    expect(regenerated.status).toBe(0);
    expect(regenerated.stdout).toBe(original);
  });

  it('verify --all reports a corrupt store file as a failed check while verifying the rest', () => {
    const dir = repoWithCommit();
    const { home, run } = cliFor(dir);
    run(['before', '--run', 'c']);
    writeFiles(dir, { 'x.txt': 'x\n' });
    const snap = ok(run(['after', '--run', 'c', '--iteration', '1', '--json']), Snapshot);
    writeFileSync(join(home, 'snapshots', 'zz-corrupt.json'), '{');
    const res = run(['verify', '--all', '--json']);
    expect(res.status).toBe(3);
    const report = VerifyReport.parse(res.json());
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['store-file']);
    expect(report.checks.filter((c) => c.snapshotId === snap.id && c.ok)).toHaveLength(13);
    const list = run(['list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(snap.id);
    expect(list.stdout).toContain('warning: STORE_CORRUPT');
  });

  it("a run's linked snapshot file that is gone fails verify, --all and --run (exit 3), not only a listing", () => {
    const dir = repoWithCommit();
    const { home, run } = cliFor(dir);
    const ids: string[] = [];
    for (const iteration of [1, 2]) {
      run(['before', '--run', 'm']);
      writeFiles(dir, { 'x.txt': `${iteration}\n` });
      ids.push(ok(run(['after', '--run', 'm', '--iteration', String(iteration), '--json']), Snapshot).id);
    }
    rmSync(join(home, 'snapshots', `${ids[1]}.json`));
    for (const args of [['verify'], ['verify', '--all'], ['verify', '--run', 'm']]) {
      const res = run([...args, '--json']);
      expect(res.status, args.join(' ')).toBe(3);
      const failed = VerifyReport.parse(res.json()).checks.filter((c) => !c.ok);
      expect(failed.map((c) => c.check)).toEqual(['store-file']);
      expect(failed[0]?.detail).toContain(ids[1]);
    }
  });

  it('honours --artifacts-dir, $AGENTGATE_ARTIFACTS_DIR, --home and -C', () => {
    const dir = repoWithCommit();
    const elsewhere = tempDir('agentgate-cwd-');
    const home = tempDir('agentgate-home-');
    const [viaFlag, viaEnv] = [tempDir('agentgate-art-'), tempDir('agentgate-art-')];
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      runCli([...args, '-C', dir, '--home', home, '--json'], {
        cwd: elsewhere,
        env: { AGENTGATE_HOME: undefined, ...env },
      });
    for (const [iteration, extra, env, expected] of [
      [1, ['--artifacts-dir', viaFlag], {}, viaFlag],
      [2, [], { AGENTGATE_ARTIFACTS_DIR: viaEnv }, viaEnv],
    ] as const) {
      ok(run(['before', '--run', 'o']), BeforeState);
      writeFiles(dir, { [`f${iteration}.txt`]: 'x\n' });
      const snap = ok(
        run(['after', '--run', 'o', '--iteration', String(iteration), ...extra], env),
        Snapshot,
      );
      expect(snap.patchPath).toBe(join(expected, 'o', `iteration-${iteration}`, 'patch.diff'));
      expect(existsSync(snap.patchPath as string)).toBe(true);
    }
    expect(readdirSync(join(home, 'snapshots'))).toHaveLength(2);
    expect(existsSync(join(elsewhere, '.git'))).toBe(false);
  });

  it('takes the start from --before SHA without a recorded before state', () => {
    const dir = repoWithCommit();
    const base = head(dir);
    writeFiles(dir, { 'a.txt': 'a\n' });
    commitAll(dir, 'agent');
    const { run } = cliFor(dir);
    const snap = ok(
      run(['after', '--run', 'b', '--iteration', '1', '--before', base.slice(0, 10), '--json']),
      Snapshot,
    );
    expect(snap).toMatchObject({ beforeSha: base, afterSha: head(dir), filesChanged: 1 });
  });

  it('before --branch puts the run on a branch of its own; one at another commit is BRANCH_EXISTS', () => {
    const dir = repoWithCommit();
    const base = head(dir);
    const { run } = cliFor(dir);
    expect(
      ok(run(['before', '--run', 'own', '--branch', 'agentgate/own', '--json']), BeforeState),
    ).toMatchObject({ sha: base, branch: 'agentgate/own' });
    writeFiles(dir, { 'a.txt': 'a\n' });
    const snap = ok(run(['after', '--run', 'own', '--iteration', '0', '--json']), Snapshot);
    expect(snap.branch).toBe('agentgate/own');
    expect([git(dir, ['rev-parse', 'main']), git(dir, ['rev-parse', 'agentgate/own'])]).toEqual([
      base,
      snap.afterSha,
    ]);
    git(dir, ['checkout', '-q', 'main']);
    // Back on main, HEAD has left the run (RUN_DIVERGED); a new run may not take the branch either.
    failsWithJson(run(['before', '--run', 'own', '--branch', 'agentgate/own', '--json']), 'RUN_DIVERGED');
    failsWithJson(run(['before', '--run', 'own2', '--branch', 'agentgate/own', '--json']), 'BRANCH_EXISTS');
    failsWith(run(['before', '--run', 'own2', '--branch', 'no..good']), 'INVALID_ARGUMENT', 2);
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
  });

  it('before --branch refuses a branch checked out in another worktree (INVALID_ARGUMENT), writing nothing', () => {
    const dir = repoWithCommit();
    const other = join(tempDir('agentgate-wt-'), 'other');
    git(dir, ['worktree', 'add', '-q', '-b', 'feature', other]);
    writeFiles(dir, { 'wip.txt': 'uncommitted\n' });
    const home = tempDir('agentgate-home-');
    const { run } = cliFor(dir, home);
    const before = fingerprint(dir);
    const feature = git(dir, ['rev-parse', 'feature']);
    failsWithJson(run(['before', '--run', 'wt', '--branch', 'feature', '--json']), 'INVALID_ARGUMENT', 2);
    expect(fingerprint(dir)).toEqual(before);
    expect([git(dir, ['symbolic-ref', 'HEAD']), git(dir, ['rev-parse', 'feature'])]).toEqual([
      'refs/heads/main',
      feature,
    ]);
    expect(git(other, ['status', '--porcelain'])).toBe('');
    expect(existsSync(join(home, 'runs', 'wt.json'))).toBe(false);
  });
});

describe('CLI errors', () => {
  it('prints `agentgate-snapshot: CODE: message` (or the JSON error) and exits 1, changing nothing', () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const { run } = cliFor(dir);
    const cases: Array<[string[], string]> = [
      [['show', 'snap-unknown'], 'SNAPSHOT_NOT_FOUND'],
      [['after', '--run', 'never', '--iteration', '1'], 'RUN_NOT_FOUND'],
      [['before', '--run', '../evil'], 'INVALID_ID'],
      [['stats', 'no-such-rev', 'HEAD'], 'REVISION_NOT_FOUND'],
      [['before', '--run', 'r', '-C', join(dir, 'missing')], 'WORKSPACE_NOT_FOUND'],
      [['verify', '--run', 'never'], 'RUN_NOT_FOUND'],
    ];
    writeFiles(dir, { 'f.txt': 'dirty\n' });
    cases.push([['before', '--run', 'r', '--on-dirty', 'error'], 'DIRTY_WORKSPACE']);
    const print = fingerprint(dir);
    for (const [args, code] of cases) {
      failsWith(run(args), code);
      failsWithJson(run([...args, '--json']), code);
    }
    expect(fingerprint(dir)).toBe(print);
  });

  it('reports HISTORY_REWRITTEN and CHERRY_PICK_CONFLICT, leaving the repository as it was', () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    git(dir, ['checkout', '-q', '-b', 'clash']);
    writeFiles(dir, { 'f.txt': 'clash\n' });
    commitAll(dir, 'clash');
    git(dir, ['checkout', '-q', 'main']);
    const { run } = cliFor(dir);
    run(['before', '--run', 'x']);
    writeFiles(dir, { 'f.txt': 'mine\n' });
    const snap = ok(run(['after', '--run', 'x', '--iteration', '1', '--json']), Snapshot);
    let print = fingerprint(dir);
    failsWith(run(['cherry-pick', snap.id, '--onto', 'clash']), 'CHERRY_PICK_CONFLICT');
    expect(fingerprint(dir)).toBe(print);
    // It names the snapshot and its commits, not the commit made here to apply them.
    const conflict = run(['cherry-pick', snap.id, '--onto', 'clash', '--json']).json() as {
      error: { message: string; details: { id: string; afterSha: string } };
    };
    expect(conflict.error.message).toContain(`snapshot ${snap.id} (${snap.beforeSha.slice(0, 12)}..`);
    expect(conflict.error.details).toMatchObject({ id: snap.id, afterSha: snap.afterSha });

    run(['before', '--run', 'x']);
    git(dir, ['commit', '-q', '--amend', '-m', 'rewritten']);
    print = fingerprint(dir);
    failsWithJson(run(['after', '--run', 'x', '--iteration', '2', '--json']), 'HISTORY_REWRITTEN');
    expect(fingerprint(dir)).toBe(print);
  });

  it('cherry-pick commits in the workspace -C names (a linked worktree), else the current directory, never where the run was recorded', () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const { home, run } = cliFor(dir);
    ok(run(['before', '--run', 'wt', '--json']), BeforeState);
    writeFiles(dir, { 'g.txt': 'g\n' });
    const snap = ok(run(['after', '--run', 'wt', '--iteration', '1', '--json']), Snapshot);
    const linked = join(tempDir('agentgate-wt-'), 'wt');
    git(dir, ['worktree', 'add', '-q', '-b', 'feature', linked, snap.beforeSha]);
    const main = git(dir, ['rev-parse', 'main']);
    const picked = ok(run(['cherry-pick', snap.id, '-C', linked, '--json']), CommitInfo);
    expect(picked.parents).toEqual([snap.beforeSha]);
    expect(git(dir, ['rev-parse', 'feature'])).toBe(picked.sha);
    expect(readFileSync(join(linked, 'g.txt'), 'utf8')).toBe('g\n');
    expect(git(dir, ['rev-parse', 'main'])).toBe(main);
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    // Without -C: the current directory, here a repository that lacks the snapshot's commits.
    const other = repoWithCommit();
    const print = fingerprint(other);
    const elsewhere = runCli(['cherry-pick', snap.id], { cwd: other, env: { AGENTGATE_HOME: home } });
    failsWith(elsewhere, 'REVISION_NOT_FOUND');
    expect(fingerprint(other)).toBe(print);
    expect(git(dir, ['rev-parse', 'main'])).toBe(main);
  });

  it("patch --json and serve's patch keep bytes that are not UTF-8 (content and name) as \\udcNN: encoded back, they are the raw diff", () => {
    const dir = repoWithCommit();
    const { home, run } = cliFor(dir);
    ok(run(['before', '--run', 'bytes', '--json']), BeforeState);
    writeFileSync(Buffer.from(join(dir, 'n\xe9'), 'latin1'), Buffer.from('caf\xe9\n', 'latin1'));
    const snap = ok(run(['after', '--run', 'bytes', '--iteration', '1', '--json']), Snapshot);
    const raw = (args: string[], input?: string): Buffer => {
      const res = spawnSync(process.execPath, [CLI, ...args], {
        cwd: dir,
        env: { ...process.env, AGENTGATE_HOME: home },
        ...(input === undefined ? {} : { input }),
      });
      expect(res.status, res.stderr.toString()).toBe(0);
      return res.stdout;
    };
    const diff = raw(['patch', snap.id]);
    expect(diff.includes(Buffer.from('+caf\xe9\n', 'latin1'))).toBe(true);
    const fromJson = JSON.parse(raw(['patch', snap.id, '--json']).toString('utf8')) as { diff: string };
    expect(encodeBytes(fromJson.diff).equals(diff)).toBe(true);
    const served = raw(['serve'], `${JSON.stringify({ id: 1, command: 'patch', args: [snap.id] })}\n`);
    const answer = JSON.parse(served.toString('utf8')) as { result: { diff: string } };
    expect(encodeBytes(answer.result.diff).equals(diff)).toBe(true);
  });

  it('exits 2 on usage errors, before touching any workspace', () => {
    const cwd = tempDir('agentgate-cwd-');
    const { run } = cliFor(cwd);
    const taskFile = join(cwd, 'task.md');
    const cases: Array<[string[], string]> = [
      [['bogus'], 'USAGE'],
      [['list', '--bogus'], 'USAGE'],
      [['before'], 'USAGE'],
      [['after', '--iteration', '1'], 'USAGE'],
      [['after', '--run', 'r'], 'USAGE'],
      [['after', '--run', 'r', '--iteration', 'abc'], 'INVALID_ARGUMENT'],
      [['after', '--run', 'r', '--iteration', '1.5'], 'INVALID_ARGUMENT'],
      [['after', '--run', 'r', '--iteration=-1'], 'INVALID_ARGUMENT'],
      [['after', '--run', 'r', '--iteration', '-1'], 'USAGE'],
      [['after', '--run', 'r', '--iteration', '1', '--task', 't', '--task-file', taskFile], 'USAGE'],
      [['before', '--run', 'r', '--on-dirty', 'maybe'], 'INVALID_ARGUMENT'],
      [['show'], 'USAGE'],
      [['show', 'a', 'b'], 'USAGE'],
      [['verify', 'x', '--all'], 'USAGE'],
      [['stats', 'a', 'b', 'c'], 'USAGE'],
      [['stats'], 'USAGE'],
    ];
    for (const [i, [args, code]] of cases.entries()) {
      failsWith(run(args), code, 2);
      // The JSON form goes through the same path: a few cases suffice.
      if (i % 5 === 0) failsWithJson(run([...args, '--json']), code, 2);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('--help exits 0 for the program and for every command it lists', () => {
    const { run } = cliFor(tempDir('agentgate-cwd-'));
    const top = run(['--help']);
    expect(top.status).toBe(0);
    const section = top.stdout.slice(top.stdout.indexOf('Commands:'), top.stdout.indexOf('Global options:'));
    const names = [...section.matchAll(/^ {2}([a-z-]+(?: [a-z-]+)?) {2,}/gm)].map((m) => m[1] as string);
    for (const required of [
      'before',
      'after',
      'show',
      'list',
      'runs',
      'patch',
      'stats',
      'verify',
      'delete',
      'cherry-pick',
      'demo',
    ])
      expect(names).toContain(required);
    for (const name of names) {
      const res = run([...name.split(' '), '--help']);
      expect(res.status, name).toBe(0);
      expect(res.stdout).toContain(`Usage: agentgate-snapshot ${name}`);
      expect(res.stdout).not.toMatch(ANSI);
    }
  });
});
