/**
 * The CLI as a new user meets it (the bundled bin): help and usage errors, --version, --gate-file,
 * the three forms of `stats`, checkpoint labels and markers wherever a HASH is taken, and what the
 * checkpoint commands print for people. Codes and exit statuses are asserted, not messages.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CheckpointEntry, FileDiff, Patch, RestoreResult, TrackResult } from '../../types/checkpoint.js';
import { DiffStats, Snapshot } from '../../types/snapshot.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { messageOf } from '../helpers/snapshotter.js';

const made: string[] = [];
function temp(prefix: string): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}
function repo(files?: Record<string, string>): string {
  const dir = repoWithCommit(files);
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function cliIn(cwd: string, home = temp('agentgate-home-')) {
  return (args: string[]): CliResult => runCli(args, { cwd, env: { AGENTGATE_HOME: home } });
}

function ok<S extends z.core.$ZodType>(res: CliResult, schema: S): z.output<S> {
  expect(res.status, res.stdout + res.stderr).toBe(0);
  expect(res.stderr).toBe('');
  return z.parse(schema, res.json());
}

/** The exit status and the `CODE` of `agentgate-snapshot: CODE: message` (or of the JSON error). */
function failure(res: CliResult): [number | null, string | undefined] {
  const json = /^\{"error"/.test(res.stdout)
    ? z.object({ error: z.object({ code: z.string() }) }).parse(res.json()).error.code
    : undefined;
  return [res.status, json ?? /^agentgate-snapshot: ([A-Z_]+): /m.exec(res.stderr)?.[1]];
}

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('help, usage errors and --version', () => {
  it('with no arguments prints the help on stderr and exits 2', () => {
    const res = cliIn(temp('agentgate-cwd-'))([]);
    expect(failure(res)).toEqual([2, 'USAGE']);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('Commands:');
  });

  it('--version and -V print the package version and exit 0', () => {
    const run = cliIn(temp('agentgate-cwd-'));
    for (const args of [['--version'], ['-V'], ['before', '--version']]) {
      const res = run(args);
      expect(res.status).toBe(0);
      expect(res.stdout).toBe(`${VERSION}\n`);
      expect(res.stderr).toBe('');
    }
  });

  it('with --json, --version and --help print one JSON document too', () => {
    const run = cliIn(temp('agentgate-cwd-'));
    expect(run(['--version', '--json']).json()).toEqual({ version: VERSION });
    for (const args of [
      ['--help', '--json'],
      ['before', '--help', '--json'],
      ['checkpoint', '--help', '--json'],
    ]) {
      const res = run(args);
      expect(res.status).toBe(0);
      expect(res.json()).toEqual({ help: expect.stringContaining('Usage: agentgate-snapshot') });
    }
  });

  it('`checkpoint --help` lists the checkpoint subcommands; `checkpoint` alone is a usage error', () => {
    const run = cliIn(temp('agentgate-cwd-'));
    const help = run(['checkpoint', '--help']);
    expect(help.status).toBe(0);
    for (const sub of ['track', 'patch', 'diff', 'diff-full', 'restore', 'revert', 'list', 'gc'])
      expect(help.stdout).toMatch(new RegExp(`^ {2}checkpoint ${sub} `, 'm'));
    expect(help.stdout).not.toMatch(/^ {2}before /m);
    const alone = run(['checkpoint']);
    expect(failure(alone)).toEqual([2, 'USAGE']);
    expect(alone.stderr).toContain('checkpoint track');
    expect(failure(run(['checkpoint', 'bogus']))).toEqual([2, 'USAGE']);
    expect(failure(run(['checkpoint', '--json']))).toEqual([2, 'USAGE']);
  });

  it('an unknown command is USAGE (exit 2) and suggests the nearest command, when one is close', () => {
    const run = cliIn(temp('agentgate-cwd-'));
    const cases: Array<[string[], string | undefined]> = [
      [['verfy'], 'verify'],
      [['befor', '--run', 'r'], 'before'],
      [['cherrypick', 'x'], 'cherry-pick'],
      [['checkpoint', 'trak'], 'checkpoint track'],
      [['snapshot'], undefined],
    ];
    for (const [args, nearest] of cases) {
      const res = run([...args, '--json']);
      expect(failure(res), args.join(' ')).toEqual([2, 'USAGE']);
      const details = z
        .object({ error: z.object({ details: z.record(z.string(), z.unknown()) }) })
        .parse(res.json());
      expect(details.error.details.suggestion, args.join(' ')).toBe(nearest);
      const plain = run(args);
      expect(failure(plain)).toEqual([2, 'USAGE']);
      if (nearest !== undefined) expect(plain.stderr).toContain(`did you mean "${nearest}"?`);
      else expect(plain.stderr).not.toContain('did you mean');
    }
  });

  it('an unknown option or a missing value is USAGE (exit 2) naming the option, for every kind of option', () => {
    const run = cliIn(temp('agentgate-cwd-'));
    const cases: string[][] = [
      ['list', '--bogus'],
      ['list', '-x'],
      ['before', '--run'],
      ['after', '--run', 'r', '--iteration'],
      ['patch', 'id', '-o'],
      ['checkpoint', 'gc', '--keep'],
      ['list', '--json=yes'],
      ['list', '-C'],
    ];
    for (const args of cases) {
      const res = run(args);
      expect(failure(res), args.join(' ')).toEqual([2, 'USAGE']);
      expect(res.stderr).not.toMatch(/ERR_PARSE_ARGS|argument is ambiguous|To specify an option argument/);
      const flag = args.filter((a) => a.startsWith('-')).pop() as string;
      expect(res.stderr, args.join(' ')).toContain(flag.replace(/=.*/, ''));
    }
    expect(failure(run(['checkpoint', 'gc', '--keep', 'many']))).toEqual([2, 'INVALID_ARGUMENT']);
  });

  it('an empty FILE argument is INVALID_ARGUMENT (exit 2), as an empty FILE option is', () => {
    const run = cliIn(repo());
    expect(failure(run(['import', '']))).toEqual([2, 'INVALID_ARGUMENT']);
    expect(failure(run(['export', '-o', '']))).toEqual([2, 'INVALID_ARGUMENT']);
  });

  it('the commands that read the home alone refuse a -C that names no directory (WORKSPACE_NOT_FOUND)', () => {
    const home = temp('agentgate-home-');
    const file = join(home, 'a-file');
    writeFileSync(file, '');
    for (const missing of [join(home, 'missing'), file])
      for (const command of [['list'], ['runs'], ['gate', 'list'], ['report']]) {
        const res = runCli([...command, '-C', missing, '--home', home, '--json']);
        expect(res.status, `${command.join(' ')}: ${res.stdout}`).toBe(1);
        expect(res.json()).toMatchObject({ error: { code: 'WORKSPACE_NOT_FOUND' } });
      }
    // Without -C they read the home from anywhere, as before.
    expect(runCli(['runs', '--home', home, '--json'], { cwd: temp('agentgate-cwd-') }).json()).toEqual([]);
  });

  it('takes a command option before the command word', () => {
    const dir = repo();
    const res = cliIn(dir)(['--run', 'early', 'before', '--json']);
    expect(res.status, res.stderr).toBe(0);
  });

  it("after a group word, an option's value that names a top-level command is the value (gate --name verify)", () => {
    const dir = repo();
    const run = cliIn(dir);
    expect(run(['before', '--run', 'g']).status).toBe(0);
    writeFiles(dir, { 'a.txt': 'a\n' });
    expect(run(['after', '--run', 'g', '--iteration', '1']).status).toBe(0);
    // `verify` and `report` are commands, not subcommands of `gate`: they are the gate's names here.
    const names = ['verify', 'report'].map((name) => {
      const res = run(['gate', '--run', 'g', '--name', name, '--json', '--', 'true']);
      expect(res.status, res.stdout).toBe(0);
      return z.object({ name: z.string() }).parse(res.json()).name;
    });
    expect(names).toEqual(['verify', 'report']);
    // A subcommand of the group is still the subcommand, wherever the group's options put it.
    const hook = run(['hook', '--dry-run', 'install', 'claude-code', '--project', '--json']);
    expect(hook.status, hook.stdout).toBe(0);
    expect(failure(run(['gate', 'lsit']))).toEqual([2, 'USAGE']);
  });
});

describe('after --gate and --gate-file', () => {
  it("records the gate label from the file's text; both at once is USAGE, an unreadable file INVALID_ARGUMENT", () => {
    const dir = repo();
    const run = cliIn(dir);
    const gateFile = join(temp('agentgate-gate-'), 'gate.txt');
    writeFileSync(gateFile, 'lint, unit tests\n');
    expect(run(['before', '--run', 'g']).status).toBe(0);
    writeFiles(dir, { 'a.txt': 'a\n' });
    const snap = ok(
      run(['after', '--run', 'g', '--iteration', '1', '--gate-file', gateFile, '--json']),
      Snapshot,
    );
    expect(messageOf(dir, snap.afterSha).split('\n')[3]).toBe('Gate: lint, unit tests');
    expect(
      failure(run(['after', '--run', 'g', '--iteration', '2', '--gate', 'x', '--gate-file', gateFile])),
    ).toEqual([2, 'USAGE']);
    expect(
      failure(run(['after', '--run', 'g', '--iteration', '2', '--gate-file', join(dir, 'missing.txt')])),
    ).toEqual([2, 'INVALID_ARGUMENT']);
  });
});

describe('stats FROM TO | SNAPSHOT | --run ID', () => {
  it("gives a snapshot's and a whole run's statistics, the same as FROM TO over their SHAs", () => {
    const dir = repo({ 'f.txt': 'base\n' });
    const elsewhere = temp('agentgate-cwd-');
    const home = temp('agentgate-home-');
    const run = cliIn(dir, home);
    const before = z.object({ sha: z.string() });
    const start = ok(run(['before', '--run', 's', '--json']), before).sha;
    writeFiles(dir, { 'a.txt': 'a\n', 'f.txt': 'base\nmore\n' });
    const s1 = ok(run(['after', '--run', 's', '--iteration', '1', '--json']), Snapshot);
    run(['before', '--run', 's']);
    writeFiles(dir, { 'b.txt': 'b\nb\n' });
    const s2 = ok(run(['after', '--run', 's', '--iteration', '2', '--json']), Snapshot);

    const one = ok(run(['stats', s2.id, '--json']), DiffStats);
    expect(one).toEqual(ok(run(['stats', s2.beforeSha, s2.afterSha, '--json']), DiffStats));
    expect(one).toMatchObject({
      filesChanged: s2.filesChanged,
      insertions: s2.insertions,
      deletions: s2.deletions,
    });
    const whole = ok(run(['stats', '--run', 's', '--json']), DiffStats);
    expect(whole).toEqual(ok(run(['stats', start, s2.afterSha, '--json']), DiffStats));
    expect(whole.filesChanged).toBe(3);
    expect(s1.beforeSha).toBe(start);
    // The recorded workspace is used when -C is not given.
    expect(ok(cliIn(elsewhere, home)(['stats', '--run', 's', '--json']), DiffStats)).toEqual(whole);

    // Labelled so they cannot be misread: stats counts distinct files, the report sums per iteration.
    expect(run(['stats', '--run', 's']).stdout).toMatch(/^3 distinct files changed, /);
    const md = run(['report', '--run', 's', '--format', 'md']).stdout;
    expect(md).toContain(`${s1.filesChanged + s2.filesChanged} file changes summed over iterations`);

    expect(failure(run(['stats', '--run', 'never']))).toEqual([1, 'RUN_NOT_FOUND']);
    expect(failure(run(['stats', 'snap-none']))).toEqual([1, 'SNAPSHOT_NOT_FOUND']);
    expect(failure(run(['stats', s2.id, '--run', 's']))).toEqual([2, 'USAGE']);
    expect(failure(run(['stats']))).toEqual([2, 'USAGE']);
  });
});

describe('checkpoints by label and marker', () => {
  it('takes a label, latest, baseline or safety wherever it takes a HASH', () => {
    const dir = repo({ 'f.txt': 'one\n' });
    const run = cliIn(dir);
    const first = ok(run(['checkpoint', 'track', '--label', 'start', '--json']), TrackResult);
    writeFiles(dir, { 'f.txt': 'two\n', 'g.txt': 'g\n' });
    const second = ok(run(['checkpoint', 'track', '--label', 'edited', '--json']), TrackResult);
    writeFiles(dir, { 'f.txt': 'three\n' });

    expect(ok(run(['checkpoint', 'patch', 'start', '--json']), Patch)).toEqual(
      ok(run(['checkpoint', 'patch', first.hash, '--json']), Patch),
    );
    expect(ok(run(['checkpoint', 'patch', 'latest', '--json']), Patch).hash).toBe(second.hash);
    expect(ok(run(['checkpoint', 'diff', 'baseline', '--json']), z.object({ diff: z.string() }))).toEqual(
      ok(run(['checkpoint', 'diff', first.hash.slice(0, 8), '--json']), z.object({ diff: z.string() })),
    );
    const full = ok(run(['checkpoint', 'diff-full', 'start', 'edited', '--json']), z.array(FileDiff));
    expect(full).toEqual(
      ok(run(['checkpoint', 'diff-full', first.hash, second.hash, '--json']), z.array(FileDiff)),
    );
    expect(full.map((d) => d.file).sort()).toEqual(['f.txt', 'g.txt']);

    expect(failure(run(['checkpoint', 'restore', 'safety']))).toEqual([1, 'CHECKPOINT_NOT_FOUND']);
    expect(failure(run(['checkpoint', 'restore', 'no-such-label']))).toEqual([1, 'CHECKPOINT_NOT_FOUND']);
    const restored = ok(run(['checkpoint', 'restore', 'start', '--json']), RestoreResult);
    expect(restored.hash).toBe(first.hash);
    expect(readFileSync(join(dir, 'f.txt'), 'utf8')).toBe('one\n');
    // The safety checkpoint the restore took is now `safety`: restoring it undoes the restore.
    expect(ok(run(['checkpoint', 'restore', 'safety', '--json']), RestoreResult).hash).toBe(restored.safety);
    expect(readFileSync(join(dir, 'f.txt'), 'utf8')).toBe('three\n');
    expect(
      ok(run(['checkpoint', 'list', '--json']), z.array(CheckpointEntry)).some((e) => e.label === 'edited'),
    ).toBe(true);
  });

  it("prints, for people: patch the changed files, diff a unified diff, diff-full each file's contents before and after", () => {
    const dir = repo({ 'f.txt': 'one\n' });
    const run = cliIn(dir);
    expect(run(['checkpoint', 'track', '--label', 'start']).status).toBe(0);
    writeFiles(dir, { 'f.txt': 'two\n' });
    const patch = run(['checkpoint', 'patch', 'start']);
    expect(patch.status).toBe(0);
    expect(patch.stdout.split('\n')).toContain(join(dir, 'f.txt'));
    const diff = run(['checkpoint', 'diff', 'start']);
    expect(diff.stdout).toMatch(/^diff --git a\/f\.txt b\/f\.txt$/m);
    expect(diff.stdout).toMatch(/^-one\n\+two$/m);
    const full = run(['checkpoint', 'diff-full', 'start']);
    expect(full.status).toBe(0);
    expect(full.stdout).toBe('=== modified f.txt (+1 -1)\n--- before\none\n--- after\ntwo\n');
  });
});

describe('patch that fails', () => {
  it('leaves no temporary directory behind', () => {
    const dir = repo();
    const home = temp('agentgate-home-');
    const tmp = temp('agentgate-tmpdir-');
    const run = (args: string[]) => runCli(args, { cwd: dir, env: { AGENTGATE_HOME: home, TMPDIR: tmp } });
    expect(run(['before', '--run', 'p']).status).toBe(0);
    writeFiles(dir, { 'a.txt': 'a\n' });
    const snap = ok(run(['after', '--run', 'p', '--iteration', '1', '--json']), Snapshot);
    // Neither the artifact nor the repository is there to regenerate it from.
    rmSync(snap.patchPath as string);
    rmSync(join(dir, '.git'), { recursive: true, force: true });
    const res = run(['patch', snap.id]);
    expect(res.status).toBe(1);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
