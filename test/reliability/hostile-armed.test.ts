/**
 * The armed repository (fixtures/make-armed-repo.sh: hooks, hooksPath, fsmonitor, clean/smudge/
 * process filters, diff.external, textconv, diff and merge drivers, pagers, gpg, editors, includes)
 * driven through EVERY CLI command, with the caller's environment pointing GIT_DIR, GIT_WORK_TREE,
 * GIT_INDEX_FILE and more somewhere bogus. After every call: no marker file, and the result is
 * checked against the oracle git (plumbing that runs none of the armed programs). A control at the
 * end proves the arming is live.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  CheckpointEntry,
  FileDiff,
  Patch,
  RestoreResult,
  RevertResult,
  TrackResult,
} from '../../types/checkpoint.js';
import type { RunRecord } from '../../types/run.js';
import type { BeforeState, CommitInfo, DiffStats, Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { runCli } from '../helpers/cli.js';
import { oracleEnv, tempDir } from '../helpers/repo.js';
import { blobIds, checkpointStores, readWorkspace, report, treeBlobs } from './support.js';

const SCRIPT = new URL('../../fixtures/make-armed-repo.sh', import.meta.url).pathname;
const root = tempDir('agentgate-hostile-armed-');
const dir = join(root, 'repo');
const markers = join(root, 'markers');
const home = join(root, 'home');
const bogus = join(root, 'bogus');

/** The caller's environment is hostile too: every variable that could redirect or arm git. */
const ENV: NodeJS.ProcessEnv = {
  AGENTGATE_HOME: home,
  GIT_DIR: join(bogus, 'git-dir'),
  GIT_WORK_TREE: join(bogus, 'work-tree'),
  GIT_INDEX_FILE: join(bogus, 'index'),
  GIT_OBJECT_DIRECTORY: join(bogus, 'objects'),
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: join(root, 'never'),
  GIT_EXTERNAL_DIFF: join(root, 'never'),
  GIT_PAGER: join(root, 'never'),
  PAGER: join(root, 'never'),
  GIT_EDITOR: join(root, 'never'),
  EDITOR: join(root, 'never'),
  GIT_SSH_COMMAND: join(root, 'never'),
  GIT_ASKPASS: join(root, 'never'),
};

const commandsRun = new Set<string>();
let calls = 0;

/** Runs one CLI command in the armed repository and checks that nothing armed ran. */
function cli(args: string[]): { status: number | null; stdout: string; json: <T>() => T } {
  const res = runCli([...args, '-C', dir], { env: ENV, cwd: dir });
  calls += 1;
  commandsRun.add(args[0] === 'checkpoint' ? `checkpoint ${args[1]}` : (args[0] as string));
  expect(readdirSync(markers), `armed programs that ran during "${args.join(' ')}"`).toEqual([]);
  return { status: res.status, stdout: res.stdout, json: <T>() => JSON.parse(res.stdout) as T };
}

function ok<T>(args: string[]): T {
  const res = cli([...args, '--json']);
  expect(res.status, `${args.join(' ')}: ${res.stdout}`).toBe(0);
  return res.json<T>();
}

/** Oracle plumbing that runs no armed program (no index refresh, no filters, no pager). */
const plumb = (args: string[]): string =>
  execFileSync('git', args, { cwd: dir, env: oracleEnv() }).toString().trimEnd();
const blob = (spec: string): string => plumb(['cat-file', '-p', spec]);
const rev = (spec: string): string => plumb(['rev-parse', '--verify', spec]);

beforeAll(() => {
  execFileSync('sh', [SCRIPT, dir, markers], { env: oracleEnv(), stdio: 'pipe' });
  writeFileSync(join(root, 'never'), `#!/bin/sh\ntouch '${markers}/env-program'\nexit 1\n`, { mode: 0o755 });
  expect(readdirSync(markers)).toEqual([]);
});

describe('the armed repository through every CLI command', () => {
  const state: { snap1?: Snapshot; snap2?: Snapshot; h1?: string; atH1?: Map<string, Buffer> } = {};

  it('before (clean and dirty) and after: correct commits, nothing run', () => {
    const clean = ok<BeforeState>(['before', '--run', 'armed']);
    expect(clean).toMatchObject({ sha: rev('main'), branch: 'main', wipSha: null, headState: 'branch' });

    // Dirty, through every filtered kind of file: the WIP commit holds the raw bytes.
    writeFileSync(join(dir, 'data.txt'), 'dirty before the run\n');
    writeFileSync(join(dir, 'blob.dat'), Buffer.from([9, 8, 7, 0, 255]));
    writeFileSync(join(dir, 'README.md'), '# dirty\n');
    writeFileSync(join(dir, 'new.txt'), 'untracked\n');
    const dirty = ok<BeforeState>(['before', '--run', 'armed']);
    expect(dirty.wipSha).toBe(rev('HEAD'));
    expect(blob(`${dirty.wipSha}:data.txt`)).toBe('dirty before the run');
    expect(
      Buffer.from(plumb(['cat-file', 'blob', `${dirty.wipSha}:blob.dat`]), 'latin1').length,
    ).toBeGreaterThan(0);
    expect(blob(dirty.wipSha as string)).not.toContain('gpgsig');

    // The agent's iteration: a change, an addition, a deletion.
    writeFileSync(join(dir, 'data.txt'), 'the agent was here\n');
    writeFileSync(join(dir, 'agent.txt'), 'added by the agent\n');
    rmSync(join(dir, 'README.md'));
    const snap = ok<Snapshot>([
      'after',
      '--run',
      'armed',
      '--iteration',
      '1',
      '--task',
      'armed task',
      '--gate',
      'gates.yaml',
    ]);
    expect(snap.beforeSha).toBe(dirty.sha);
    expect(snap.afterSha).toBe(rev('HEAD'));
    expect(snap.files.map((f) => [f.path, f.status]).sort()).toEqual([
      ['README.md', 'deleted'],
      ['agent.txt', 'added'],
      ['data.txt', 'modified'],
    ]);
    expect(blob(`${snap.afterSha}:agent.txt`)).toBe('added by the agent');
    expect(snap.commitMessage).toContain('Task: armed task');
    expect(blob(snap.afterSha)).not.toContain('gpgsig');
    state.snap1 = snap;
  });

  it('show, list, runs: the stored snapshot, by id and by abbreviated SHA', () => {
    const snap = state.snap1 as Snapshot;
    expect(ok<Snapshot>(['show', snap.id])).toEqual(snap);
    expect(ok<Snapshot>(['show', snap.afterSha.slice(0, 12)])).toEqual(snap);
    expect(ok<Snapshot[]>(['list']).map((s) => s.id)).toEqual([snap.id]);
    expect(ok<Snapshot[]>(['list', '--run', 'armed']).map((s) => s.id)).toEqual([snap.id]);
    expect(ok<RunRecord[]>(['runs'])[0]?.snapshotIds).toEqual([snap.id]);
  });

  it('patch: the artifact, and the same bytes regenerated from git (no textconv, no external diff)', () => {
    const snap = state.snap1 as Snapshot;
    const artifact = readFileSync(snap.patchPath as string, 'utf8');
    expect(artifact).toContain('+the agent was here');
    expect(cli(['patch', snap.id]).stdout).toBe(artifact);
    const out = join(root, 'out.diff');
    ok(['patch', snap.id, '-o', out]);
    expect(readFileSync(out, 'utf8')).toBe(artifact);
    renameSync(snap.patchPath as string, `${snap.patchPath}.away`);
    expect(cli(['patch', snap.id]).stdout).toBe(artifact);
    renameSync(`${snap.patchPath}.away`, snap.patchPath as string);
  });

  it('stats between branches: raw line counts', () => {
    const stats = ok<DiffStats>(['stats', 'release', 'topic']);
    expect(stats.files.map((f) => [f.path, f.status, f.insertions, f.deletions]).sort()).toEqual([
      ['data.txt', 'modified', 1, 1],
      ['topic.txt', 'added', 1, 0],
    ]);
  });

  it('verify --all, verify ID, verify --run: clean', () => {
    const snap = state.snap1 as Snapshot;
    for (const target of [['--all'], [snap.id], ['--run', 'armed']]) {
      const verified = ok<VerifyReport>(['verify', ...target]);
      expect(verified.ok).toBe(true);
      expect(verified.checks.map((c) => c.check)).toContain('patch-applies');
    }
  });

  it('cherry-pick onto another branch (a temporary worktree), onto the current branch, and a conflict', () => {
    ok<BeforeState>(['before', '--run', 'armed']);
    writeFileSync(join(dir, 'feature.txt'), 'a feature\n');
    const snap2 = ok<Snapshot>(['after', '--run', 'armed', '--iteration', '2', '--task', 'feature']);
    state.snap2 = snap2;

    const release = rev('release');
    const picked = ok<CommitInfo>(['cherry-pick', snap2.id, '--onto', 'release']);
    expect(picked.parents).toEqual([release]);
    expect(rev('release')).toBe(picked.sha);
    expect(blob(`${picked.sha}:feature.txt`)).toBe('a feature');

    // Onto main, where the change already is: a commit that changes nothing, made without hooks.
    const head = rev('HEAD');
    const inPlace = ok<CommitInfo>(['cherry-pick', snap2.id]);
    expect(inPlace.parents).toEqual([head]);
    expect(rev(`${inPlace.sha}^{tree}`)).toBe(rev(`${head}^{tree}`));

    // Iteration 1 rewrote data.txt, which needs a content merge on release: the neutralised merge
    // driver does not run, the pick conflicts and nothing changes.
    const conflict = cli(['cherry-pick', (state.snap1 as Snapshot).id, '--onto', 'release', '--json']);
    expect(conflict.status).toBe(1);
    expect(conflict.json<{ error: { code: string } }>().error.code).toBe('CHERRY_PICK_CONFLICT');
    expect(rev('release')).toBe(picked.sha);
    expect(plumb(['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(1);
  });

  it('delete: the metadata and the link go, the commit stays', () => {
    const snap = state.snap1 as Snapshot;
    expect(ok<{ deleted: string }>(['delete', snap.id])).toEqual({ deleted: snap.id });
    expect(ok<Snapshot[]>(['list']).map((s) => s.id)).toEqual([(state.snap2 as Snapshot).id]);
    expect(rev(`${snap.afterSha}^{commit}`)).toBe(snap.afterSha);
    expect(ok<VerifyReport>(['verify', '--all']).ok).toBe(true);
  });

  it('checkpoint track, patch, diff, diff-full: raw contents, nothing run', () => {
    const tracked = ok<TrackResult>(['checkpoint', 'track', '--label', 'armed']);
    const files = readWorkspace(dir);
    const [store] = checkpointStores(home);
    expect(Object.fromEntries(treeBlobs(dir, tracked.hash, store?.gitDir))).toEqual(
      Object.fromEntries(blobIds(dir, [...files.keys()].sort())),
    );
    state.h1 = tracked.hash;
    state.atH1 = files;

    writeFileSync(join(dir, 'data.txt'), 'changed after the checkpoint\n');
    writeFileSync(join(dir, 'cp.txt'), 'new after the checkpoint\n');
    rmSync(join(dir, 'feature.txt'));
    const patch = ok<Patch>(['checkpoint', 'patch', tracked.hash]);
    expect(patch.files.sort()).toEqual(['cp.txt', 'data.txt', 'feature.txt'].map((f) => join(dir, f)));
    const diff = ok<{ diff: string }>(['checkpoint', 'diff', tracked.hash]).diff;
    expect(diff).toContain('+changed after the checkpoint');
    expect(diff).toContain('-the agent was here');
    const full = ok<FileDiff[]>(['checkpoint', 'diff-full', tracked.hash]);
    expect(full.find((d) => d.file === 'data.txt')).toMatchObject({
      before: 'the agent was here\n',
      after: 'changed after the checkpoint\n',
      status: 'modified',
    });
    expect(full.find((d) => d.file === 'feature.txt')).toMatchObject({
      before: 'a feature\n',
      after: '',
      status: 'deleted',
    });
  });

  it('checkpoint restore, revert, list, gc: files written back raw (no smudge), nothing run', () => {
    const h1 = state.h1 as string;
    const restored = ok<RestoreResult>(['checkpoint', 'restore', h1]);
    expect(restored.leftAlone).toEqual([]);
    expect(readWorkspace(dir)).toEqual(state.atH1);

    writeFileSync(join(dir, 'data.txt'), 'changed again\n');
    writeFileSync(join(dir, 'agent.txt'), 'also changed\n');
    const reverted = ok<RevertResult>(['checkpoint', 'revert', h1, 'data.txt']);
    expect(reverted.reverted).toEqual([join(dir, 'data.txt')]);
    expect(readFileSync(join(dir, 'data.txt'), 'utf8')).toBe('the agent was here\n');
    expect(readFileSync(join(dir, 'agent.txt'), 'utf8')).toBe('also changed\n');

    const listed = ok<CheckpointEntry[]>(['checkpoint', 'list']);
    expect(listed.map((e) => e.hash)).toContain(h1);
    const gc = ok<{ kept: number; removed: number }>(['checkpoint', 'gc', '--keep', '1', '--prune', 'now']);
    expect(gc.removed).toBeGreaterThan(0);
    expect(ok<CheckpointEntry[]>(['checkpoint', 'list']).length).toBeGreaterThan(0);
  });

  it('covered every command, and the control shows the arming is live', () => {
    expect([...commandsRun].sort()).toEqual(
      ['after', 'before', 'cherry-pick', 'delete', 'list', 'patch', 'runs', 'show', 'stats', 'verify']
        .concat(
          ['diff', 'diff-full', 'gc', 'list', 'patch', 'restore', 'revert', 'track'].map(
            (c) => `checkpoint ${c}`,
          ),
        )
        .sort(),
    );
    const armed = ['armed-bin', 'hooks', 'armed-hooks'].map(
      (d) => readdirSync(join(dir, '.git', d)).filter((n) => !n.endsWith('.sample')).length,
    );
    // Config keys (in the repository's config and the files it includes) that name an armed program.
    const keys = ['config', 'armed-include', 'armed-include-onbranch']
      .flatMap((f) => readFileSync(join(dir, '.git', f), 'utf8').split('\n'))
      .filter((line) => line.includes('/armed-bin/')).length;
    // Plain git, with none of our defences, in the same repository.
    const plain = (args: string[]): void => {
      try {
        execFileSync('git', args, { cwd: dir, env: oracleEnv(), stdio: 'pipe' });
      } catch {
        // some armed programs fail on purpose; that they ran is what counts
      }
    };
    writeFileSync(join(dir, 'data.txt'), 'control\n');
    plain(['status']);
    plain(['diff', 'HEAD~1']);
    plain(['-c', 'filter.armedproc.required=false', '-c', 'filter.armedproc.process=', 'add', '-A']);
    plain([
      '-c',
      'filter.armedproc.required=false',
      '-c',
      'filter.armedproc.process=',
      'commit',
      '-m',
      'control',
    ]);
    const fired = readdirSync(markers);
    expect(fired).toEqual(
      expect.arrayContaining(['fsmonitor', 'filter-clean', 'diff-command', 'gpg', 'hookspath-pre-commit']),
    );
    expect(existsSync(join(markers, 'env-program'))).toBe(false);
    report('hostile', {
      case: 'armed repository',
      commands: commandsRun.size,
      calls,
      armedPrograms: armed[0],
      configKeysNamingThem: keys,
      hooks: (armed[1] ?? 0) + (armed[2] ?? 0),
      hostileEnvVars: Object.keys(ENV).length - 1,
      ranDuringOurCalls: 0,
      firedInControl: fired.length,
    });
  });
});
