/**
 * Repositories whose configuration or layout tries to make us run a program or act outside the
 * workspace, built by fixtures/make-hostile-config.sh, plus repositories owned by another user, a
 * full disk and a stale index.lock. Every attack leaves a marker file if it succeeds.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BeforeState, CommitInfo, DiffStats, Snapshot } from '../../types/snapshot.js';
import { gitFailure } from '../../src/git/runner.js';
import { runCli } from '../helpers/cli.js';
import { canMountTmpfs } from '../helpers/disk.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const SCRIPT = new URL('../../fixtures/make-hostile-config.sh', import.meta.url).pathname;

interface Fixture {
  root: string;
  ws: string;
  marker: string;
  home: string;
}

function fixture(kind: string): Fixture {
  const root = join(tempDir('agentgate-hostile-config-'), kind);
  const marker = `${root}.marker`;
  execFileSync('bash', [SCRIPT, kind, root, marker], { stdio: 'pipe' });
  return { root, ws: join(root, 'ws'), marker, home: `${root}.home` };
}

function cli(f: { ws: string; home: string }, args: string[], env: NodeJS.ProcessEnv = {}) {
  const res = runCli(['-C', f.ws, '--json', ...args], { env: { AGENTGATE_HOME: f.home, ...env } });
  return {
    ...res,
    code: res.status === 0 ? null : (JSON.parse(res.stdout) as { error: { code: string } }).error.code,
  };
}

function ok<T>(f: { ws: string; home: string }, args: string[], env: NodeJS.ProcessEnv = {}): T {
  const res = cli(f, args, env);
  expect(res.status, `${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout) as T;
}

describe('programs a repository names never run', () => {
  it('a partial clone never fetches lazily: its ext:: promisor and upload-pack stay unused, a missing object is OBJECT_MISSING', () => {
    const f = fixture('partial-clone');
    const stats = cli(f, ['stats', 'HEAD~1', 'HEAD']);
    expect(stats.code).toBe('OBJECT_MISSING');
    // What exists still works: an iteration on top of the checked-out commit.
    ok<BeforeState>(f, ['before', '--run', 'p1']);
    writeFiles(f.ws, { 'README.md': 'agent edit\n' });
    const snap = ok<Snapshot>(f, ['after', '--run', 'p1', '--iteration', '1']);
    expect(snap.filesChanged).toBe(1);
    ok<DiffStats>(f, ['stats', snap.beforeSha, snap.afterSha]);
    expect(existsSync(f.marker)).toBe(false);
  });

  it('a filter included only on our agentgate/** branch stays off', () => {
    const f = fixture('include-onbranch');
    const before = ok<BeforeState>(f, ['before', '--run', 'b1']);
    expect(before.headState).toBe('detached');
    expect(before.branch).toBe('agentgate/b1');
    expect(before.wipSha).not.toBeNull();
    writeFiles(f.ws, { 'new.txt': 'agent file\n' });
    ok<Snapshot>(f, ['after', '--run', 'b1', '--iteration', '1']);
    ok<DiffStats>(f, ['stats', before.sha, 'HEAD']);
    expect(existsSync(f.marker)).toBe(false);
    // Committed raw, as the filter would not have left it.
    expect(git(f.ws, ['show', 'HEAD:new.txt'])).toBe('agent file');
  });

  it('a filter included only for linked worktrees stays off in the temporary worktree of cherry-pick --onto', () => {
    const f = fixture('include-worktree');
    ok<BeforeState>(f, ['before', '--run', 'w1']);
    writeFiles(f.ws, { 'picked.txt': 'to be picked\n' });
    const snap = ok<Snapshot>(f, ['after', '--run', 'w1', '--iteration', '1']);
    const picked = ok<CommitInfo>(f, ['cherry-pick', snap.id, '--onto', 'other']);
    expect(git(f.ws, ['rev-parse', 'other'])).toBe(picked.sha);
    expect(git(f.ws, ['show', 'other:picked.txt'])).toBe('to be picked');
    expect(existsSync(f.marker)).toBe(false);
  });
});

describe('nothing outside the workspace is touched', () => {
  it('core.worktree pointing at a parent: UNSAFE_WORKSPACE for snapshots and checkpoints, the sibling untouched', () => {
    const f = fixture('core-worktree');
    for (const args of [
      ['before', '--run', 'c1'],
      ['checkpoint', 'track'],
    ])
      expect(cli(f, args).code, args.join(' ')).toBe('UNSAFE_WORKSPACE');
    expect(readFileSync(join(f.root, 'sibling', 'secret.txt'), 'utf8')).toBe('not yours\n');
    expect(git(join(f.root, 'ws'), ['log', '--format=%s'])).toBe('init');
  });

  it('a .git file pointing into an unrelated repository: UNSAFE_WORKSPACE, that repository unchanged', () => {
    const f = fixture('foreign-gitfile');
    const victim = join(f.root, 'victim');
    const tip = head(victim);
    for (const args of [
      ['before', '--run', 'g1'],
      ['checkpoint', 'track'],
    ])
      expect(cli(f, args).code, args.join(' ')).toBe('UNSAFE_WORKSPACE');
    expect(head(victim)).toBe(tip);
    expect(git(victim, ['status', '--porcelain'])).toBe('');
  });

  it('real linked worktrees and submodules keep working', () => {
    const main = repoWithCommit({ 'a.txt': 'one\n' });
    const wt = join(tempDir('agentgate-wt-'), 'wt');
    git(main, ['worktree', 'add', '-q', '-b', 'wt-branch', wt]);
    const inWorktree = { ws: wt, home: join(tempDir('agentgate-wt-home-'), 'home') };
    ok<BeforeState>(inWorktree, ['before', '--run', 'wt']);
    writeFiles(wt, { 'b.txt': 'bee\n' });
    expect(ok<Snapshot>(inWorktree, ['after', '--run', 'wt', '--iteration', '1']).filesChanged).toBe(1);

    const sub = repoWithCommit({ 's.txt': 'sub\n' });
    const sup = repoWithCommit({ 'top.txt': 'top\n' });
    git(sup, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'modules/sub']);
    commitAll(sup, 'add submodule');
    const inSubmodule = {
      ws: join(sup, 'modules', 'sub'),
      home: join(tempDir('agentgate-sub-home-'), 'home'),
    };
    ok<BeforeState>(inSubmodule, ['before', '--run', 'sub']);
    writeFiles(inSubmodule.ws, { 's.txt': 'changed in the submodule\n' });
    expect(ok<Snapshot>(inSubmodule, ['after', '--run', 'sub', '--iteration', '1']).filesChanged).toBe(1);
  });

  it('HEAD on a remote-tracking ref counts as detached: the iteration gets its own branch and the ref stays', () => {
    const f = fixture('head-outside');
    const remoteTip = git(f.ws, ['rev-parse', 'refs/remotes/origin/main']);
    const before = ok<BeforeState>(f, ['before', '--run', 'h1']);
    expect(before).toMatchObject({ headState: 'detached', branch: 'agentgate/h1' });
    writeFiles(f.ws, { 'more.txt': 'more\n' });
    const snap = ok<Snapshot>(f, ['after', '--run', 'h1', '--iteration', '1']);
    expect(snap.branch).toBe('agentgate/h1');
    expect(git(f.ws, ['rev-parse', 'refs/remotes/origin/main'])).toBe(remoteTip);
    expect(git(f.ws, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/agentgate/h1');
  });

  it('core.ignoreCase=true does not hide a file whose name differs by case', () => {
    const f = fixture('ignorecase');
    expect(cli(f, ['before', '--run', 'i1', '--on-dirty', 'error']).code).toBe('DIRTY_WORKSPACE');
    const before = ok<BeforeState>(f, ['before', '--run', 'i1']);
    expect(git(f.ws, ['show', `${before.wipSha ?? ''}:readme.md`])).toBe('another file');
  });
});

describe('our own directories inside the workspace', () => {
  it('a home that is the workspace is refused; a home inside it reached through a symlinked path is never committed', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    expect(cli({ ws, home: ws }, ['before', '--run', 'h']).code).toBe('UNSAFE_WORKSPACE');
    const link = join(tempDir('agentgate-link-'), 'ws-link');
    symlinkSync(ws, link);
    const f = { ws, home: join(link, '.agentgate') };
    ok<BeforeState>(f, ['before', '--run', 'h']);
    writeFiles(ws, { 'a.txt': 'two\n' });
    const snap = ok<Snapshot>(f, ['after', '--run', 'h', '--iteration', '1']);
    expect(snap.files.map((x) => x.path)).toEqual(['a.txt']);
    expect(git(ws, ['ls-tree', '-r', '--name-only', 'HEAD'])).toBe('a.txt');
  });

  it('an artifacts directory inside the workspace that the agent turns into a symlink is not written through', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = join(tempDir('agentgate-art-home-'), 'home');
    const f = { ws, home };
    const env = { AGENTGATE_ARTIFACTS_DIR: join(ws, 'artifacts') };
    ok<BeforeState>(f, ['before', '--run', 'a'], env);
    writeFiles(ws, { 'a.txt': 'two\n' });
    ok<Snapshot>(f, ['after', '--run', 'a', '--iteration', '1'], env);
    const elsewhere = tempDir('agentgate-elsewhere-');
    ok<BeforeState>(f, ['before', '--run', 'a'], env);
    rmSync(join(ws, 'artifacts'), { recursive: true });
    symlinkSync(elsewhere, join(ws, 'artifacts'));
    writeFiles(ws, { 'a.txt': 'three\n' });
    const headBefore = git(ws, ['rev-parse', 'HEAD']);
    expect(cli(f, ['after', '--run', 'a', '--iteration', '2'], env).code).toBe('UNSAFE_WORKSPACE');
    expect(readdirSync(elsewhere)).toEqual([]);
    // Refused before anything was committed: no commit, no iteration ref.
    expect(git(ws, ['rev-parse', 'HEAD'])).toBe(headBefore);
    expect(git(ws, ['for-each-ref', 'refs/agentgate/runs/a/iteration-2'])).toBe('');
  });

  it('before in a directory that is not a repository needs --init, and reports nested repositories', () => {
    const dir = tempDir('agentgate-plain-');
    writeFiles(dir, { '.env': 'SECRET=1\n', 'clone/x.txt': 'x\n' });
    git(join(dir, 'clone'), ['init', '-q']);
    const f = { ws: dir, home: join(tempDir('agentgate-plain-home-'), 'home') };
    expect(cli(f, ['before', '--run', 'n']).code).toBe('NOT_A_REPOSITORY');
    expect(existsSync(join(dir, '.git'))).toBe(false);
    const before = ok<BeforeState>(f, ['before', '--run', 'n', '--init']);
    expect(before.nestedRepositories).toEqual(['clone']);
    expect(git(dir, ['ls-tree', '-r', '--name-only', 'HEAD'])).toBe('.env');
  });
});

describe('odd files and repositories', () => {
  it('names that are not UTF-8 stay distinct and lossless (\\udcNN in JSON)', () => {
    const f = fixture('odd-names');
    ok<BeforeState>(f, ['before', '--run', 'o1', '--on-dirty', 'wip-commit']);
    const wip = git(f.ws, ['rev-parse', 'HEAD']);
    writeFiles(f.ws, { 'README.md': 'more\n' });
    const snap = ok<Snapshot>(f, ['after', '--run', 'o1', '--iteration', '1']);
    expect(snap.files.map((x) => x.path)).toEqual(['README.md']);
    const stats = ok<DiffStats>(f, ['stats', 'HEAD~2', wip]);
    const names = stats.files.map((x) => x.path).sort();
    expect(names).toEqual(['name-\udcfe.txt', 'name-\udcff.txt']);
  });

  it('a FIFO where a tracked file was is skipped and reported; the rest is captured', () => {
    const f = fixture('special-file');
    const before = ok<BeforeState>(f, ['before', '--run', 'p1']);
    expect(before.skipped).toEqual([{ path: 'pipe', reason: 'special-file' }]);
    expect(git(f.ws, ['show', 'HEAD:README.md'])).toBe('edited');
    expect(git(f.ws, ['show', 'HEAD:pipe'])).toBe('data');
  });

  it('a sparse checkout takes a new file outside the cone, and leaves the index as git expects', () => {
    const f = fixture('sparse');
    const before = ok<BeforeState>(f, ['before', '--run', 's1']);
    expect(before.wipSha).not.toBeNull();
    expect(git(f.ws, ['show', 'HEAD:b/new.txt'])).toBe('new outside the cone');
    writeFiles(f.ws, { 'a/x.txt': 'a2\n' });
    expect(ok<Snapshot>(f, ['after', '--run', 's1', '--iteration', '1']).files.map((x) => x.path)).toEqual([
      'a/x.txt',
    ]);
    expect(git(f.ws, ['status', '--porcelain'])).toBe('');
  });

  it('a repository using Git LFS is LFS_UNSUPPORTED before anything changes', () => {
    const f = fixture('lfs');
    const tip = head(f.ws);
    expect(cli(f, ['before', '--run', 'l1']).code).toBe('LFS_UNSUPPORTED');
    expect(head(f.ws)).toBe(tip);
    expect(git(f.ws, ['status', '--porcelain'])).toBe('?? big.bin');
  });

  it('a clean LFS repository is refused by before and by iterate before its agent runs, as after would refuse it', () => {
    const f = fixture('lfs');
    rmSync(join(f.ws, 'big.bin'));
    const tip = head(f.ws);
    expect(cli(f, ['before', '--run', 'l2']).code).toBe('LFS_UNSUPPORTED');
    const agentRan = join(f.root, 'agent-ran');
    const res = cli(f, ['iterate', '--run', 'l3', '--iteration', '1', '--', 'touch', agentRan]);
    expect(res.code).toBe('LFS_UNSUPPORTED');
    expect(existsSync(agentRan)).toBe(false);
    expect(head(f.ws)).toBe(tip);
    expect(git(f.ws, ['status', '--porcelain'])).toBe('');
    // A directory that --init would make a repository of is refused before git init runs.
    const dir = join(f.root, 'fresh');
    mkdirSync(dir);
    writeFileSync(join(dir, '.gitattributes'), '*.bin filter=lfs diff=lfs merge=lfs -text\n');
    expect(cli({ ws: dir, home: f.home }, ['before', '--run', 'l4', '--init']).code).toBe('LFS_UNSUPPORTED');
    expect(existsSync(join(dir, '.git'))).toBe(false);
  });

  it('a filter=lfs line that is a comment sends nothing through LFS: the repository is not refused', () => {
    const ws = repoWithCommit({
      '.gitattributes': '# we used to: *.bin filter=lfs\n  #*.png filter=lfs\n*.txt text\n',
    });
    const f = { ws, home: join(tempDir('agentgate-lfs-comment-'), 'home') };
    expect(cli(f, ['before', '--run', 'l5']).code).toBeNull();
  });

  it('git-crypt and transcrypt (filter=crypt) are FILTER_UNSUPPORTED: their plaintext is never committed', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n', '.gitattributes': '# *.key filter=git-crypt\n*.txt text\n' });
    // The repro: transcrypt's filter, configured and required; a comment line refuses nothing.
    git(ws, ['config', 'filter.crypt.clean', 'sed s/^/ENC:/']);
    git(ws, ['config', 'filter.crypt.required', 'true']);
    const f = { ws, home: join(tempDir('agentgate-crypt-'), 'home') };
    expect(cli(f, ['before', '--run', 'c1']).code).toBeNull();
    writeFiles(ws, { 'a.txt': 'a2\n' });
    ok<Snapshot>(f, ['after', '--run', 'c1', '--iteration', '1']);
    // An agent that adds the line meets the refusal at after, with nothing committed.
    ok<BeforeState>(f, ['before', '--run', 'c2']);
    const tip = head(ws);
    writeFiles(ws, {
      '.gitattributes': 'secret.env filter=crypt diff=crypt\n',
      'secret.env': 'API_KEY=hunter2\n',
    });
    expect(cli(f, ['after', '--run', 'c2', '--iteration', '1']).code).toBe('FILTER_UNSUPPORTED');
    expect(head(ws)).toBe(tip);
    expect(cli(f, ['before', '--run', 'c3']).code).toBe('FILTER_UNSUPPORTED');
    // git-crypt's, in info/attributes, with a named key too, and after a quoted pattern with no blank.
    for (const line of [
      'secret.env filter=git-crypt',
      'secret.env filter=git-crypt-ops',
      '"s e"filter=git-crypt',
    ]) {
      const other = repoWithCommit({ 'a.txt': 'a\n' });
      writeFiles(other, { '.git/info/attributes': `${line} diff=git-crypt\n` });
      const res = cli({ ws: other, home: f.home }, ['before', '--run', 'c4']);
      expect(res.code, line).toBe('FILTER_UNSUPPORTED');
    }
  });

  it("filter=lfs in core.attributesFile is LFS_UNSUPPORTED: the repository's own, else the user's global one", () => {
    const lfs = '*.bin filter=lfs diff=lfs merge=lfs -text\n';
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    writeFiles(ws, { '.git/attrs': lfs, 'x.bin': 'BIG\n' });
    git(ws, ['config', 'core.attributesFile', '.git/attrs']);
    const f = { ws, home: join(tempDir('agentgate-attrs-'), 'home') };
    expect(cli(f, ['before', '--run', 'a1']).code).toBe('LFS_UNSUPPORTED');
    // The user's global config names one (GIT_CONFIG_GLOBAL, `~/`), for before and before --init.
    const user = tempDir('agentgate-attrs-user-');
    writeFiles(user, { gitconfig: '[core]\n\tattributesFile = ~/attrs\n', attrs: lfs });
    const env = { HOME: user, GIT_CONFIG_GLOBAL: join(user, 'gitconfig') };
    const plain = repoWithCommit({ 'a.txt': 'a\n' });
    expect(cli({ ws: plain, home: f.home }, ['before', '--run', 'a2'], env).code).toBe('LFS_UNSUPPORTED');
    const dir = tempDir('agentgate-attrs-init-');
    expect(cli({ ws: dir, home: f.home }, ['before', '--run', 'a3', '--init'], env).code).toBe(
      'LFS_UNSUPPORTED',
    );
    expect(existsSync(join(dir, '.git'))).toBe(false);
    // The repository's own core.attributesFile wins over the user's, as in git.
    writeFiles(plain, { '.git/clean-attrs': '*.txt text\n' });
    git(plain, ['config', 'core.attributesFile', '.git/clean-attrs']);
    expect(cli({ ws: plain, home: f.home }, ['before', '--run', 'a4'], env).code).toBeNull();
    // Without any core.attributesFile, git's default under $HOME counts.
    const bare = tempDir('agentgate-attrs-default-');
    writeFiles(bare, { '.config/git/attributes': '*.env filter=crypt\n' });
    const res = cli({ ws: repoWithCommit({ 'a.txt': 'a\n' }), home: f.home }, ['before', '--run', 'a5'], {
      HOME: bare,
    });
    expect(res.code).toBe('FILTER_UNSUPPORTED');
  });
});

const asRoot = process.getuid?.() === 0;

describe('a repository owned by another user', () => {
  it.runIf(asRoot)(
    "is UNSAFE_REPOSITORY_OWNER with the way to allow it, for snapshots and checkpoints; the user's safe.directory allows it",
    () => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      chownSync(ws, 12345, 12345);
      chownSync(join(ws, '.git'), 12345, 12345);
      const f = { ws, home: join(tempDir('agentgate-owner-home-'), 'home') };
      const userHome = tempDir('agentgate-owner-user-');
      for (const args of [
        ['before', '--run', 'o1'],
        ['checkpoint', 'track'],
      ]) {
        const res = cli(f, args, { HOME: userHome });
        expect(res.code, args.join(' ')).toBe('UNSAFE_REPOSITORY_OWNER');
        expect((JSON.parse(res.stdout) as { error: { message: string } }).error.message).toContain(
          'safe.directory',
        );
      }
      writeFileSync(join(userHome, '.gitconfig'), `[safe]\n\tdirectory = ${ws}\n`);
      ok<BeforeState>(f, ['before', '--run', 'o1'], { HOME: userHome });
      ok(f, ['checkpoint', 'track'], { HOME: userHome });
    },
  );
});

describe('git failures get codes, and keep what git said', () => {
  it('classifies disk full, dubious ownership, a held index.lock and a missing promisor object', () => {
    const code = (stderr: string) => gitFailure(['add', '-A'], 128, stderr, {}).code;
    expect(
      code(
        'error: unable to write file .git/objects/ab/cd: No space left on device\nfatal: unable to write new index file',
      ),
    ).toBe('DISK_FULL');
    expect(
      code(
        "fatal: detected dubious ownership in repository at '/w'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /w",
      ),
    ).toBe('UNSAFE_REPOSITORY_OWNER');
    expect(
      code(
        "fatal: Unable to create '/w/.git/index.lock': File exists.\n\nAnother git process seems to be running",
      ),
    ).toBe('INDEX_LOCKED');
    expect(
      code('warning: lazy fetching disabled; some objects may not be available\nfatal: bad object'),
    ).toBe('OBJECT_MISSING');
    expect(code('fatal: something else')).toBe('GIT_FAILED');
    const long = `${'x'.repeat(100)}\n`.repeat(50);
    expect(gitFailure(['status'], 1, long, { stderr: long }).details.stderr).toBe(long);
  });

  it('a stale index.lock whose git is gone is recovered; one held by a live process is INDEX_LOCKED, untouched', async () => {
    const f = {
      ws: repoWithCommit({ 'a.txt': 'one\n' }),
      home: join(tempDir('agentgate-lock-home-'), 'home'),
    };
    const lock = join(f.ws, '.git', 'index.lock');
    // A held lock is waited for up to the lock timeout.
    mkdirSync(f.home, { recursive: true });
    writeFileSync(join(f.home, 'config.yaml'), 'lockTimeoutMs: 1000\n');
    writeFileSync(lock, '');
    ok<BeforeState>(f, ['before', '--run', 'l1']);
    writeFiles(f.ws, { 'a.txt': 'two\n' });
    expect(ok<Snapshot>(f, ['after', '--run', 'l1', '--iteration', '1']).filesChanged).toBe(1);
    expect(existsSync(lock)).toBe(false);

    // A live process holding the lock open: never taken.
    writeFileSync(lock, '');
    const held = spawn('bash', ['-c', `exec 3<"${lock}"; echo open; exec sleep 30`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      // Once it says so, the lock is open in it (no fixed wait).
      await new Promise((resolve, reject) => {
        held.stdout.once('data', resolve);
        held.once('exit', reject);
      });
      writeFiles(f.ws, { 'a.txt': 'three\n' });
      expect(cli(f, ['before', '--run', 'l2']).code).toBe('INDEX_LOCKED');
      expect(existsSync(lock)).toBe(true);
      expect(git(f.ws, ['status', '--porcelain'])).toBe(' M a.txt');
    } finally {
      held.kill('SIGKILL');
      rmSync(lock, { force: true });
    }
  });
});

describe('a full disk', () => {
  const mounts: string[] = [];
  afterAll(() => {
    for (const dir of mounts) execFileSync('umount', [dir]);
  });

  it.runIf(asRoot && canMountTmpfs())(
    'is DISK_FULL and loses nothing; after freeing space the retry records the iteration',
    () => {
      const disk = tempDir('agentgate-disk-');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', disk]);
      mounts.push(disk);
      const ws = join(disk, 'ws');
      mkdirSync(ws);
      git(ws, ['init', '-q', '-b', 'main']);
      writeFiles(ws, { 'a.txt': 'one\n' });
      commitAll(ws, 'initial');
      const f = { ws, home: join(disk, 'home') };
      ok<BeforeState>(f, ['before', '--run', 'd1']);
      const ballast = join(disk, 'ballast');
      // Too little room left for the new object: staging fails before anything is committed.
      writeFileSync(ballast, randomBytesOf(4_800_000));
      const payload = randomBytesOf(1_800_000);
      writeFileSync(join(ws, 'big.bin'), payload);
      const tip = head(ws);
      const failed = cli(f, ['after', '--run', 'd1', '--iteration', '1']);
      expect(failed.code).toBe('DISK_FULL');
      // --json errors carry what git said, whole, in details.
      expect(
        (JSON.parse(failed.stdout) as { error: { details: { stderr: string } } }).error.details.stderr,
      ).toContain('No space left on device');
      expect(head(ws)).toBe(tip);
      expect(readFileSync(join(ws, 'big.bin')).equals(payload)).toBe(true);
      rmSync(ballast);
      const snap = ok<Snapshot>(f, ['after', '--run', 'd1', '--iteration', '1']);
      expect(snap.files.map((x) => x.path)).toContain('big.bin');
      expect(readFileSync(join(ws, 'big.bin')).equals(payload)).toBe(true);
    },
  );
});

function randomBytesOf(n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i += 4) out.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
  return out;
}
