/**
 * A damaged checkpoint store (src/checkpoints/recovery.ts): its git dir gone, a marker ref holding
 * garbage, its store.json missing. Every command but track says STORE_CORRUPT (never git's own
 * error, never "no checkpoints"); track, as every agent hook, moves the damaged part aside and goes
 * on; and a command that only reads, or fails, leaves the home as it was.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../helpers/codes.js';
import { fingerprint, openCheckpoints } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** The `damaged-*` directories set aside in a store. */
function setAside(storeDir: string): string[] {
  return readdirSync(storeDir).filter((name) => name.startsWith('damaged-'));
}

describe('a store whose git dir is gone', () => {
  it('is STORE_CORRUPT for every command but track, which moves the rest aside and starts a new store', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-damaged-home-');
    const first = await openCheckpoints(ws, { home });
    const t = await first.track('A');
    rmSync(first.location.gitDir, { recursive: true });

    const cp = await openCheckpoints(ws, { home });
    await expectCode(cp.list(), 'STORE_CORRUPT');
    await expectCode(cp.status(), 'STORE_CORRUPT');
    await expectCode(cp.markers(), 'STORE_CORRUPT');
    await expectCode(cp.restore(t.hash), 'STORE_CORRUPT');
    await expectCode(cp.patch(t.hash), 'STORE_CORRUPT');
    await expectCode(cp.gc(), 'STORE_CORRUPT');
    // None of them wrote anything: no stub of a git dir, nothing set aside.
    expect(existsSync(cp.location.gitDir)).toBe(false);
    expect(setAside(cp.location.dir)).toEqual([]);

    writeFiles(ws, { 'a.txt': 'two\n' });
    const again = await cp.track('B');
    expect(again.recovered).toMatch(/damaged-/);
    const [aside] = setAside(cp.location.dir);
    // The stale index (naming objects that are gone) went with it.
    expect(existsSync(join(cp.location.dir, aside ?? '', 'index'))).toBe(true);
    expect((await cp.list()).map((e) => e.label)).toEqual(['B']);
    // Said once: the next track finds a whole store.
    writeFiles(ws, { 'a.txt': 'three\n' });
    expect((await cp.track('C')).recovered).toBeUndefined();
    await cp.restore(again.hash);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('an agent hook keeps checkpointing; track --json warns STORE_RECOVERED', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-damaged-cli-');
    const env = { AGENTGATE_HOME: home };
    expect(runCli(['checkpoint', 'track', '-C', ws], { env }).status).toBe(0);
    const checkpoints = join(home, 'checkpoints');
    const [project] = readdirSync(checkpoints);
    const [wt] = readdirSync(join(checkpoints, project ?? ''));
    const storeDir = join(checkpoints, project ?? '', wt ?? '');
    rmSync(join(storeDir, 'git'), { recursive: true });

    const restore = runCli(['checkpoint', 'restore', 'latest', '-C', ws], { env });
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain('STORE_CORRUPT');
    const event = JSON.stringify({
      session_id: 's1',
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'p',
    });
    const hook = runCli(['hook', 'claude-code'], { input: event, env });
    expect(hook.status).toBe(0);
    // The hook says what it did to the store and where the damaged part went: stderr and the log.
    expect(hook.stderr).toMatch(/STORE_RECOVERED.*damaged-/);
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(
      /recorded: .*STORE_RECOVERED.*damaged-/,
    );
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env });
    expect(list.status).toBe(0);
    expect((list.json() as Array<{ session?: string }>).map((e) => e.session)).toEqual(['s1']);

    rmSync(join(storeDir, 'git'), { recursive: true });
    const track = runCli(['checkpoint', 'track', '--json', '-C', ws], { env });
    expect(track.status).toBe(0);
    const warnings = (JSON.parse(track.stderr) as { warnings: Array<{ code: string }> }).warnings;
    expect(warnings.map((w) => w.code)).toEqual(['STORE_RECOVERED']);
  });
});

describe('a marker ref holding garbage', () => {
  it('is STORE_CORRUPT for reads ("latest" is never "no latest checkpoint yet"); track sets it aside and keeps every checkpoint', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    const a = await cp.track('A');
    writeFiles(ws, { 'a.txt': 'two\n' });
    await cp.track('B');
    writeFileSync(join(cp.location.gitDir, 'refs', 'checkpoints-meta', 'latest'), 'garbage\n');

    await expectCode(cp.markers(), 'STORE_CORRUPT');
    await expectCode(cp.restore(a.hash), 'STORE_CORRUPT');
    await expectCode(cp.diff(a.hash), 'STORE_CORRUPT');

    writeFiles(ws, { 'a.txt': 'three\n' });
    const c = await cp.track('C');
    expect(c.recovered).toMatch(/latest/);
    expect((await cp.list()).map((e) => e.label)).toEqual(['C', 'B', 'A']);
    expect((await cp.markers()).latest?.hash).toBe(c.hash);
    await cp.restore(a.hash);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });
});

describe('a store.json that is missing', () => {
  it('hides no checkpoint, and a read that fails leaves the home as it was', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-nometa-home-');
    const first = await openCheckpoints(ws, { home });
    const a = await first.track('A');
    rmSync(first.location.metaFile);

    const cp = await openCheckpoints(ws, { home });
    expect((await cp.list()).map((e) => e.hash)).toEqual([a.hash]);
    expect((await cp.status()).checkpoints).toBe(1);
    const before = fingerprint(home);
    await expectCode(cp.diff('0123abcd'), 'CHECKPOINT_NOT_FOUND');
    expect(fingerprint(home)).toEqual(before);
    expect(existsSync(first.location.metaFile)).toBe(false);
    expect((await cp.patch(a.hash)).files).toEqual([]);
    // A track writes it again.
    await cp.track('B');
    expect(existsSync(first.location.metaFile)).toBe(true);
  });

  it('a command that asks for a checkpoint where there is no store makes none', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-nostore-home-');
    const cp = await openCheckpoints(ws, { home });
    await expectCode(cp.patch('0123abcd'), 'CHECKPOINT_NOT_FOUND');
    await expectCode(cp.restore('0123abcd'), 'CHECKPOINT_NOT_FOUND');
    await expectCode(cp.revert('0123abcd'), 'CHECKPOINT_NOT_FOUND');
    expect(readdirSync(home)).toEqual([]);
  });

  it('through the CLI: list shows the checkpoint and exits 0, a failing diff of a label rewrites nothing', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-nometa-cli-');
    const env = { AGENTGATE_HOME: home };
    expect(runCli(['checkpoint', 'track', '--label', 'A', '-C', ws], { env }).status).toBe(0);
    const checkpoints = join(home, 'checkpoints');
    const [project] = readdirSync(checkpoints);
    const [wt] = readdirSync(join(checkpoints, project ?? ''));
    const metaFile = join(checkpoints, project ?? '', wt ?? '', 'store.json');
    rmSync(metaFile);
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env });
    expect(list.status).toBe(0);
    expect((list.json() as Array<{ label: string }>).map((e) => e.label)).toEqual(['A']);
    expect(runCli(['checkpoint', 'diff', 'A', '-C', ws], { env }).status).toBe(0);
    const missing = runCli(['checkpoint', 'diff', 'no-such-label', '-C', ws], { env });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('CHECKPOINT_NOT_FOUND');
    expect(existsSync(metaFile)).toBe(false);
  });
});

describe('a ref naming an object that is gone', () => {
  const NO_OBJECT = '1234567890123456789012345678901234567890';

  it('a marker whose object was lost (a power loss after the ref was written): STORE_CORRUPT for reads, track recovers', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    const a = await cp.track('A');
    writeFiles(ws, { 'a.txt': 'two\n' });
    await cp.track('B');
    const latest = join(cp.location.gitDir, 'refs', 'checkpoints-meta', 'latest');
    const oid = readFileSync(latest, 'utf8').trim();
    rmSync(join(cp.location.gitDir, 'objects', oid.slice(0, 2), oid.slice(2)));

    await expectCode(cp.list(), 'STORE_CORRUPT');
    await expectCode(cp.status(), 'STORE_CORRUPT');
    await expectCode(cp.markers(), 'STORE_CORRUPT');
    await expectCode(cp.restore(a.hash), 'STORE_CORRUPT');
    expect(setAside(cp.location.dir)).toEqual([]);

    writeFiles(ws, { 'a.txt': 'three\n' });
    const c = await cp.track('C');
    expect(c.recovered).toMatch(/latest/);
    expect(c.upkeepError).toBeUndefined();
    expect(setAside(cp.location.dir)).toHaveLength(1);
    // B's commit is gone with its object: its ref was set aside too.
    expect((await cp.list()).map((e) => e.label)).toEqual(['C', 'A']);
    expect((await cp.markers()).latest?.hash).toBe(c.hash);
    await cp.restore(a.hash);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('a well-formed id of no object, in a marker or a checkpoint ref', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    await cp.track('A');
    writeFileSync(join(cp.location.gitDir, 'refs', 'checkpoints-meta', 'baseline'), `${NO_OBJECT}\n`);
    await expectCode(cp.markers(), 'STORE_CORRUPT');
    const b = await cp.track('B');
    expect(b.recovered).toMatch(/baseline/);
    expect((await cp.markers()).baseline).not.toBeNull();

    writeFileSync(join(cp.location.gitDir, 'refs', 'checkpoints', NO_OBJECT), `${NO_OBJECT}\n`);
    await expectCode(cp.list(), 'STORE_CORRUPT');
    writeFiles(ws, { 'a.txt': 'two\n' });
    const c = await cp.track('C');
    expect(c.recovered).toMatch(/refs\/checkpoints\//);
    expect(c.upkeepError).toBeUndefined();
    expect((await cp.list()).map((e) => e.label)).toEqual(['C', 'B', 'A']);
  });
});

describe('a ref naming an object that is no commit (a store tampered with)', () => {
  it('a blob in a checkpoint ref, a tree in a marker: STORE_CORRUPT for reads (not INTERNAL), track sets them aside', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-not-commit-');
    const cp = await openCheckpoints(ws, { home });
    const a = await cp.track('A');
    const blob = git(ws, ['hash-object', 'a.txt']);
    writeFileSync(join(cp.location.gitDir, 'refs', 'checkpoints', 'zzz'), `${blob}\n`);
    writeFileSync(join(cp.location.gitDir, 'refs', 'checkpoints-meta', 'baseline'), `${a.hash}\n`);
    await expectCode(cp.list(), 'STORE_CORRUPT');
    await expectCode(cp.markers(), 'STORE_CORRUPT');
    await expectCode(cp.restore('A'), 'STORE_CORRUPT');
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
    expect([list.status, (list.json() as { error: { code: string } }).error.code]).toEqual([
      1,
      'STORE_CORRUPT',
    ]);

    writeFiles(ws, { 'a.txt': 'two\n' });
    const b = await cp.track('B');
    expect(b.recovered).toMatch(/refs\/checkpoints\/zzz/);
    expect(b.upkeepError).toBeUndefined();
    expect((await cp.list()).map((e) => e.label)).toEqual(['B', 'A']);
    expect((await cp.markers()).baseline).not.toBeNull();
  });
});

describe('a checkpoint whose tree names a path no capture makes (a store tampered with)', () => {
  it('restore and revert are STORE_CORRUPT and write nothing into the workspace or its .git', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    await cp.track('A');
    const store = (args: string[], input?: string) =>
      git(ws, [`--git-dir=${cp.location.gitDir}`, ...args], input === undefined ? {} : { input });
    const blob = store(['hash-object', '-w', '--stdin'], 'pwned\n');
    const inner = store(['mktree'], `100644 blob ${blob}\tpost-checkout\n`);
    const tree = store(['mktree'], `040000 tree ${inner}\t.git\n100644 blob ${blob}\tok.txt\n`);
    const commit = store(['commit-tree', tree, '-m', 'agentgate checkpoint: B']);
    writeFileSync(
      join(cp.location.gitDir, 'refs', 'checkpoints', '20991231T000000000Z-aaaaaa'),
      `${commit}\n`,
    );
    const before = fingerprint(ws);

    await expectCode(cp.restore(tree), 'STORE_CORRUPT');
    await expectCode(cp.revert(tree), 'STORE_CORRUPT');
    expect(fingerprint(ws)).toEqual(before);
    expect(existsSync(join(ws, '.git', 'post-checkout'))).toBe(false);
  });
});

describe('a garbled line in packed-refs (markers live there after gc)', () => {
  it('is STORE_CORRUPT for reads; track drops the line, keeps the rest aside and goes on', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    const a = await cp.track('A');
    writeFiles(ws, { 'a.txt': 'two\n' });
    await cp.track('B');
    await cp.gc();
    const packed = join(cp.location.gitDir, 'packed-refs');
    const text = readFileSync(packed, 'utf8');
    expect(text).toMatch(/ refs\/checkpoints-meta\/latest$/m);
    writeFileSync(packed, text.replace(/^[0-9a-f]+ (refs\/checkpoints-meta\/latest)$/m, 'zzzz $1'));

    await expectCode(cp.list(), 'STORE_CORRUPT');
    await expectCode(cp.markers(), 'STORE_CORRUPT');
    await expectCode(cp.diff(a.hash), 'STORE_CORRUPT');

    writeFiles(ws, { 'a.txt': 'three\n' });
    const c = await cp.track('C');
    expect(c.recovered).toMatch(/packed-refs/);
    const [aside] = setAside(cp.location.dir);
    expect(readFileSync(join(cp.location.dir, aside ?? '', 'git', 'packed-refs'), 'utf8')).toContain('zzzz');
    expect((await cp.list()).map((e) => e.label)).toEqual(['C', 'B', 'A']);
    expect((await cp.markers()).latest?.hash).toBe(c.hash);
  });
});

describe("a store's own record files that are FIFOs", () => {
  it.each(['store.json', 'probe.json', 'budget.json', 'upkeep.json'])(
    '%s is never read (nothing waits for a writer): every command works as with it missing',
    async (name) => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      const home = tempDir('agentgate-cp-fifo-home-');
      const first = await openCheckpoints(ws, { home });
      const t = await first.track('A');
      const file = join(first.location.dir, name);
      rmSync(file, { force: true });
      execFileSync('mkfifo', [file]);

      const cp = await openCheckpoints(ws, { home });
      writeFiles(ws, { 'a.txt': 'two\n' });
      await cp.track('B');
      expect((await cp.list()).map((e) => e.label)).toEqual(['B', 'A']);
      expect((await cp.status()).checkpoints).toBe(2);
      await cp.restore(t.hash);
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    },
  );
});

describe("a FIFO in a store's git dir", () => {
  it.each(['HEAD', 'packed-refs', 'refs/checkpoints-meta/latest'])(
    '%s is damage, never read: reads are STORE_CORRUPT, and track sets it aside and goes on',
    async (name) => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      const home = tempDir('agentgate-cp-fifo-git-');
      const first = await openCheckpoints(ws, { home });
      await first.track('A');
      await first.gc();
      const file = join(first.location.gitDir, ...name.split('/'));
      rmSync(file, { force: true });
      execFileSync('mkfifo', [file]);

      const cp = await openCheckpoints(ws, { home });
      await expectCode(cp.list(), 'STORE_CORRUPT');
      writeFiles(ws, { 'a.txt': 'two\n' });
      const t = await cp.track('B');
      expect(t.recovered).toBeDefined();
      expect((await cp.list()).map((e) => e.label)).toContain('B');
    },
  );
});
