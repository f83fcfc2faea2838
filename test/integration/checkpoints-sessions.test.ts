/**
 * Parallel sessions in one workspace: `restorePrompt` (checkpoint restore --prompt N --session ID)
 * puts back only the files the session changed after its prompt N, and leaves alone what another
 * session or a person changed after it. Hooks are played through `track` with the options the agent
 * hooks pass (src/hooks/agent-hook.ts).
 */
import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionRestoreResult } from '../../types/checkpoint.js';
import { fingerprint, openCheckpoints, sessionHooks as session, treeState } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { expectCode } from '../helpers/codes.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const read = (ws: string, path: string): string | null =>
  existsSync(join(ws, path)) ? readFileSync(join(ws, path), 'utf8') : null;

describe('parallel sessions: restore --prompt N --session ID', () => {
  it("two sessions on different files: only the session's files go back (edited, added, deleted); the other session's stay; the safety checkpoint undoes it", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'gone.txt': 'here\n' });
    const cp = await openCheckpoints(ws);
    const a = session(cp, 'sess-a');
    const b = session(cp, 'sess-b');
    await a.start();
    await b.start();
    await a.prompt();
    await b.prompt();
    writeFiles(ws, { 'a.txt': 'a1\n', 'a-new/file.txt': 'added by a\n' });
    rmSync(join(ws, 'gone.txt'));
    await a.tool();
    writeFiles(ws, { 'b.txt': 'b1\n' });
    await b.tool();
    writeFiles(ws, { 'a.txt': 'a2\n' });
    await a.tool();
    const before = treeState(ws);

    const r = SessionRestoreResult.parse(await cp.restorePrompt(1, 'sess-a'));
    expect(r).toMatchObject({ session: 'sess-a', prompt: 1, dryRun: false, forced: false, conflicts: [] });
    expect(r.restored.sort()).toEqual([join(ws, 'a.txt'), join(ws, 'gone.txt')]);
    expect(r.deleted).toEqual([join(ws, 'a-new/file.txt')]);
    expect([read(ws, 'a.txt'), read(ws, 'gone.txt'), read(ws, 'a-new/file.txt')]).toEqual([
      'a0\n',
      'here\n',
      null,
    ]);
    expect(read(ws, 'b.txt')).toBe('b1\n');

    // Undo through the safety checkpoint: everything as it was just before the restore.
    await cp.restore(r.safety ?? '');
    expect(treeState(ws)).toEqual(before);
  });

  it('the same file: a later change by another session is left alone and reported unless force; a file the session changed again last is no conflict', async () => {
    const ws = repoWithCommit({
      'shared.txt': 's0\n',
      'mine.txt': 'm0\n',
      'again.txt': 'g0\n',
      'back.txt': 'k0\n',
    });
    const cp = await openCheckpoints(ws);
    const a = session(cp, 'sess-a');
    const b = session(cp, 'sess-b');
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'shared.txt': 's-a\n', 'mine.txt': 'm-a\n', 'again.txt': 'g-a\n', 'back.txt': 'k-a\n' });
    await a.tool();
    await b.start();
    await b.prompt();
    // b also puts back.txt back as it was before a's prompt: nothing to restore there, no conflict.
    writeFiles(ws, { 'shared.txt': 's-b\n', 'again.txt': 'g-b\n', 'back.txt': 'k0\n' });
    await b.tool();
    writeFiles(ws, { 'again.txt': 'g-a2\n' });
    await a.tool();

    const plan = await cp.restorePrompt(1, 'sess-a', { dryRun: true });
    expect(plan.conflicts).toEqual([join(ws, 'shared.txt')]);
    const r = await cp.restorePrompt(1, 'sess-a');
    expect(r.conflicts).toEqual([join(ws, 'shared.txt')]);
    expect(r.restored.sort()).toEqual([join(ws, 'again.txt'), join(ws, 'mine.txt')]);
    expect([read(ws, 'shared.txt'), read(ws, 'mine.txt'), read(ws, 'again.txt')]).toEqual([
      's-b\n',
      'm0\n',
      'g0\n',
    ]);

    const forced = await cp.restorePrompt(1, 'sess-a', { force: true });
    expect(forced).toMatchObject({ forced: true, conflicts: [join(ws, 'shared.txt')] });
    expect(forced.restored).toEqual([join(ws, 'shared.txt')]);
    expect(read(ws, 'shared.txt')).toBe('s0\n');
    // B's change is not lost: it is in the safety checkpoint of the forced restore.
    await cp.restore(forced.safety ?? '');
    expect(read(ws, 'shared.txt')).toBe('s-b\n');
  });

  it("a person's edit, checkpointed or not, is a conflict", async () => {
    const ws = repoWithCommit({ 'f.txt': 'f0\n', 'g.txt': 'g0\n' });
    const cp = await openCheckpoints(ws);
    const a = session(cp, 'sess-a');
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'f.txt': 'f-a\n', 'g.txt': 'g-a\n' });
    await a.tool();
    writeFiles(ws, { 'f.txt': 'f-person\n' }); // no hook sees it
    expect((await cp.restorePrompt(1, 'sess-a', { dryRun: true })).conflicts).toEqual([join(ws, 'f.txt')]);
    await a.prompt(); // now a prompt checkpoint holds it: still not the session's change
    writeFiles(ws, { 'g.txt': 'g-person\n' });
    await cp.track('by hand');
    const r = await cp.restorePrompt(1, 'sess-a');
    expect(r.conflicts).toEqual([join(ws, 'f.txt'), join(ws, 'g.txt')]);
    expect(r.restored).toEqual([]);
    expect([read(ws, 'f.txt'), read(ws, 'g.txt')]).toEqual(['f-person\n', 'g-person\n']);
  });

  it('--dry-run: the plan (to restore, to delete, in conflict) and nothing changed, no checkpoint taken', async () => {
    const ws = repoWithCommit({ 'x.txt': 'x0\n', 'y.txt': 'y0\n', 'z.txt': 'z0\n' });
    const cp = await openCheckpoints(ws);
    const a = session(cp, 'sess-a');
    const b = session(cp, 'sess-b');
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'x.txt': 'x1\n', 'new.txt': 'n\n', 'z.txt': 'z1\n' });
    await a.tool();
    writeFiles(ws, { 'z.txt': 'z-b\n' });
    await b.tool();
    const disk = fingerprint(ws);
    const count = (await cp.list()).length;
    const plan = SessionRestoreResult.parse(await cp.restorePrompt(1, 'sess-a', { dryRun: true }));
    expect(plan).toMatchObject({
      dryRun: true,
      restored: [join(ws, 'x.txt')],
      deleted: [join(ws, 'new.txt')],
      conflicts: [join(ws, 'z.txt')],
      safety: null,
      safetyRef: null,
    });
    expect(fingerprint(ws)).toEqual(disk);
    expect((await cp.list()).length).toBe(count);
  });

  it("prompt 2 then prompt 1 of one session: what a restore wrote is the session's own change, no conflict", async () => {
    const ws = repoWithCommit({ 'x.txt': 'x0\n', 'y.txt': 'y0\n' });
    const cp = await openCheckpoints(ws);
    const a = session(cp, 'sess-a');
    await a.start();
    await a.prompt();
    const atPrompt1 = treeState(ws);
    writeFiles(ws, { 'x.txt': 'x1\n' });
    await a.tool();
    await a.prompt();
    const atPrompt2 = treeState(ws);
    writeFiles(ws, { 'x.txt': 'x2\n', 'y.txt': 'y2\n', 'made.txt': 'm\n' });
    await a.tool();

    expect((await cp.restorePrompt(2, 'sess-a')).conflicts).toEqual([]);
    expect(treeState(ws)).toEqual(atPrompt2);
    const r = await cp.restorePrompt(1, 'sess-a');
    expect(r.conflicts).toEqual([]);
    expect(treeState(ws)).toEqual(atPrompt1);
    // The restore is recorded as the session's, after its safety checkpoint.
    const [newest, safety] = await cp.list();
    expect(newest).toMatchObject({ session: 'sess-a', event: 'restore', role: 'restore' });
    expect(safety).toMatchObject({ kind: 'safety', hash: r.safety });
    // The latest session is still the one whose hook ran last, not the one restored last.
    await session(cp, 'sess-b').prompt();
    await expect(cp.restorePrompt(2)).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
  });

  it('an unknown session or prompt: CHECKPOINT_NOT_FOUND, nothing touched', async () => {
    const ws = repoWithCommit({ 'x.txt': 'x0\n' });
    const cp = await openCheckpoints(ws);
    await expect(cp.restorePrompt(1)).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    const a = session(cp, 'sess-a');
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'x.txt': 'x1\n' });
    await a.tool();
    const disk = fingerprint(ws);
    await expect(cp.restorePrompt(2, 'sess-a')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    await expect(cp.restorePrompt(1, 'nobody')).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
      message: expect.stringMatching(/no session nobody/),
    });
    expect(fingerprint(ws)).toEqual(disk);
  });
});

describe('checkpoint restore --prompt through the CLI', () => {
  it('RESTORE_CONFLICT (exit 3) with what was restored and the safety checkpoint; --dry-run --json the plan; --force; usage errors', async () => {
    const ws = repoWithCommit({ 'mine.txt': 'm0\n', 'shared.txt': 's0\n' });
    const home = tempDir('agentgate-sessions-home-');
    const cp = await openCheckpoints(ws, { home });
    const a = session(cp, 'sess-a');
    const b = session(cp, 'sess-b');
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'mine.txt': 'm1\n', 'shared.txt': 's-a\n' });
    await a.tool();
    writeFiles(ws, { 'shared.txt': 's-b\n' });
    await b.tool();
    const cli = (args: string[]) =>
      runCli(['checkpoint', 'restore', '--prompt', '1', '--session', 'sess-a', ...args, '-C', ws], {
        env: { AGENTGATE_HOME: home },
      });

    const plan = cli(['--dry-run', '--json']);
    expect(plan.status, plan.stderr).toBe(0);
    expect(SessionRestoreResult.parse(plan.json())).toMatchObject({
      dryRun: true,
      restored: [join(ws, 'mine.txt')],
      conflicts: [join(ws, 'shared.txt')],
    });
    expect(cli(['--dry-run']).stdout).toMatch(
      /Would restore 1 file and delete 0 .*\n {2}restore .*mine\.txt\nIn conflict/,
    );
    expect(read(ws, 'mine.txt')).toBe('m1\n');

    const conflict = cli(['--json']);
    expect(conflict.status).toBe(3);
    const { error } = conflict.json() as { error: { code: string; details: unknown } };
    expect(error.code).toBe('RESTORE_CONFLICT');
    const details = SessionRestoreResult.parse(error.details);
    expect(details.restored).toEqual([join(ws, 'mine.txt')]);
    expect(details.safety).toMatch(/^[0-9a-f]{40}$/);
    expect([read(ws, 'mine.txt'), read(ws, 'shared.txt')]).toEqual(['m0\n', 's-b\n']);
    const human = cli([]);
    expect(human.status).toBe(3);
    expect(human.stderr).toMatch(/RESTORE_CONFLICT: .*shared\.txt.*--force/);

    const forced = cli(['--force']);
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(
      /Overwrote[\s\S]*shared\.txt[\s\S]*Undo with: .*checkpoint restore [0-9a-f]{40}/,
    );
    expect(read(ws, 'shared.txt')).toBe('s0\n');

    const listed = runCli(['checkpoint', 'list', '-C', ws], { env: { AGENTGATE_HOME: home } }).stdout;
    expect(listed).toMatch(/SESSION\s+PROMPT\s+EVENT\s+ROLE/);
    expect(listed).toMatch(/sess-a\s+1\s+UserPromptSubmit\s+prompt/);
    expect(listed).toMatch(/sess-a\s+-\s+restore\s+restore/);
    const byHash = runCli(['checkpoint', 'restore', 'safety', '--json', '-C', ws], {
      env: { AGENTGATE_HOME: home },
    });
    expect(byHash.status, byHash.stdout).toBe(0);
    expect(read(ws, 'shared.txt')).toBe('s-b\n');
    for (const option of ['--force', '--dry-run', '--session=sess-a']) {
      const usage = runCli(['checkpoint', 'restore', 'latest', option, '-C', ws], {
        env: { AGENTGATE_HOME: home },
      });
      expect(usage.status, option).toBe(2);
    }
  });
});

describe('a directory the agent replaced by a symbolic link', () => {
  it('patch, diff, diff-full and restore --prompt see it (d/x gone, d a link) instead of failing in check-ignore', async () => {
    const ws = repoWithCommit({ 'd/x': 'x\n', 'e/y': 'y\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    const first = await s.prompt();
    rmSync(join(ws, 'd'), { recursive: true });
    symlinkSync('e', join(ws, 'd'));
    await s.tool();
    expect((await cp.patch(first.hash)).files.sort()).toEqual([join(ws, 'd'), join(ws, 'd/x')]);
    expect(await cp.diff(first.hash)).toContain('deleted file mode 100644');
    expect((await cp.diffFull(first.hash)).map((f) => [f.file, f.status])).toEqual([
      ['d', 'added'],
      ['d/x', 'deleted'],
    ]);
    const plan = await cp.restorePrompt(1, 's', { dryRun: true });
    expect(plan.restored.sort()).toEqual([join(ws, 'd/x')]);
    await cp.restorePrompt(1, 's');
    expect(read(ws, 'd/x')).toBe('x\n');
    // Put back as a directory: nothing was written through the link.
    expect(lstatSync(join(ws, 'd')).isDirectory()).toBe(true);
    expect(existsSync(join(ws, 'e/x'))).toBe(false);
  });

  it("the session's files that are ignored now are left alone and listed, in the plan and in the restore", async () => {
    // g.txt is untracked: a file the repository tracks is never ignored (git's rule), and is restored.
    const ws = repoWithCommit({ 'f.txt': 'f0\n' });
    writeFiles(ws, { 'g.txt': 'g0\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    writeFiles(ws, { 'f.txt': 'f1\n', 'g.txt': 'g1\n', 'n.log': 'made\n' });
    await s.tool();
    writeFiles(ws, { '.gitignore': 'g.txt\n*.log\n' });
    const plan = await cp.restorePrompt(1, 's', { dryRun: true });
    expect(plan.leftAlone).toEqual([join(ws, 'g.txt'), join(ws, 'n.log')]);
    const done = await cp.restorePrompt(1, 's');
    expect(done.restored).toEqual([join(ws, 'f.txt')]);
    expect(done.leftAlone).toEqual([join(ws, 'g.txt'), join(ws, 'n.log')]);
    expect([read(ws, 'g.txt'), read(ws, 'n.log')]).toEqual(['g1\n', 'made\n']);
  });
});

describe('restores beside other work: ignore rules, pruned steps, restores by hand', () => {
  it("a person's ignored file that the session un-ignored is not deleted by restore --prompt, nor by undoing it", async () => {
    const ws = repoWithCommit({ '.gitignore': 'local.env\n', 'a.txt': 'a0\n' });
    writeFiles(ws, { 'local.env': 'API_KEY=secret\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    writeFiles(ws, { '.gitignore': '', 'a.txt': 'a1\n' });
    await s.tool();
    const r = await cp.restorePrompt(1, 's');
    expect(r.deleted).toEqual([]);
    expect(r.leftAlone).toEqual([join(ws, 'local.env')]);
    expect([read(ws, '.gitignore'), read(ws, 'a.txt'), read(ws, 'local.env')]).toEqual([
      'local.env\n',
      'a0\n',
      'API_KEY=secret\n',
    ]);
    // The undo puts the session's state back and still leaves the file alone.
    await cp.restore(r.safety ?? '');
    expect([read(ws, '.gitignore'), read(ws, 'a.txt'), read(ws, 'local.env')]).toEqual([
      '',
      'a1\n',
      'API_KEY=secret\n',
    ]);
  });

  it('undoing a restore keeps a file the safety checkpoint did not hold because it was ignored then', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n' });
    writeFiles(ws, { 'notes.txt': 'v1\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    writeFiles(ws, { '.gitignore': 'notes.txt\n' });
    await s.tool();
    writeFiles(ws, { 'notes.txt': 'v2 work\n' });
    const r = await cp.restorePrompt(1, 's');
    expect([read(ws, '.gitignore'), read(ws, 'notes.txt')]).toEqual([null, 'v2 work\n']);
    await cp.restore(r.safety ?? '');
    expect([read(ws, '.gitignore'), read(ws, 'notes.txt')]).toEqual(['notes.txt\n', 'v2 work\n']);
  });

  it("a step whose checkpoints in between were pruned is nobody's: another session's change in it is not restored away", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const cp = await openCheckpoints(ws);
    const [s1, s2] = [session(cp, 's1'), session(cp, 's2')];
    await s1.start();
    await s2.start();
    await s2.prompt();
    await s1.prompt();
    writeFiles(ws, { 'b.txt': 'b1\n' });
    await s2.tool();
    writeFiles(ws, { 'a.txt': 'a1\n', 's1-file.txt': 'by s1\n' });
    const s1Change = await s1.tool();
    writeFiles(ws, { 'b.txt': 'b2\n' });
    await s2.tool();
    // The budget drops s1's checkpoint (it deletes its ref, as upkeep.ts does).
    git(ws, [`--git-dir=${cp.location.gitDir}`, 'update-ref', '-d', s1Change.ref]);

    const r = await cp.restorePrompt(1, 's2');
    expect([read(ws, 'a.txt'), read(ws, 's1-file.txt')]).toEqual(['a1\n', 'by s1\n']);
    expect(r.deleted).toEqual([]);
    // s2's own change in the merged step is no longer known to be its own: a conflict.
    expect(r.conflicts).toEqual([join(ws, 'b.txt')]);
    expect(read(ws, 'b.txt')).toBe('b2\n');
  });

  it("thinning a run of one session's own tool checkpoints keeps them its own", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    writeFiles(ws, { 'a.txt': 'a1\n' });
    const first = await s.tool();
    writeFiles(ws, { 'n.txt': 'new\n' });
    await s.tool();
    git(ws, [`--git-dir=${cp.location.gitDir}`, 'update-ref', '-d', first.ref]);
    const r = await cp.restorePrompt(1, 's');
    expect(r.conflicts).toEqual([]);
    expect([read(ws, 'a.txt'), read(ws, 'n.txt')]).toEqual(['a0\n', null]);
  });

  it("a person's restore by hash is nobody's change: the next tool checkpoint of a session does not make it that session's", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const cp = await openCheckpoints(ws);
    const [s1, s2] = [session(cp, 's1'), session(cp, 's2')];
    const base = await s1.start();
    await s2.start();
    await s1.prompt();
    writeFiles(ws, { 'a.txt': 'a-s1\n' });
    await s1.tool();
    await s2.prompt();
    await cp.restore(base.hash);
    writeFiles(ws, { 'b.txt': 'b-s2\n' });
    await s2.tool();
    const r = await cp.restorePrompt(1, 's2');
    expect(read(ws, 'a.txt')).toBe('a0\n');
    // s2's own change came in the same step as the restore's: not known to be s2's, left as it is.
    expect([r.restored, r.deleted, r.conflicts]).toEqual([[], [], []]);
    expect(read(ws, 'b.txt')).toBe('b-s2\n');
  });

  it('a prompt whose checkpoint was skipped keeps its number: prompt N stays the N-th prompt', async () => {
    const ws = repoWithCommit({ 'f.txt': 'v0\n' });
    const home = tempDir('agentgate-cp-home-');
    const cp = await openCheckpoints(ws, { home });
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    writeFiles(ws, { 'f.txt': 'v1\n' });
    await s.tool();
    // The second prompt's hook finds the store locked by another live process and gives up.
    const owner = { pid: process.ppid, hostname: hostname(), token: 'held', createdAt: '', purpose: 'test' };
    writeFileSync(cp.location.lockPath, JSON.stringify(owner));
    const impatient = await openCheckpoints(ws, { home, lockTimeoutMs: 1 });
    await expectCode(session(impatient, 's').prompt(), 'LOCK_TIMEOUT');
    rmSync(cp.location.lockPath);
    writeFiles(ws, { 'f.txt': 'v2\n' });
    await s.tool();
    expect((await s.prompt()).prompt).toBe(3);
    await expectCode(cp.beforePrompt(2, 's'), 'CHECKPOINT_NOT_FOUND');
    writeFiles(ws, { 'f.txt': 'v3\n' });
    await s.tool();
    await cp.restorePrompt(3, 's');
    expect(read(ws, 'f.txt')).toBe('v2\n');
  });

  it('a store numbered before prompt claims were kept: the next prompt continues after its highest', async () => {
    const ws = repoWithCommit({ 'f.txt': 'v0\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    await s.prompt();
    rmSync(cp.location.promptsDir, { recursive: true });
    expect([(await s.prompt()).prompt, (await s.prompt()).prompt]).toEqual([3, 4]);
  });
});
