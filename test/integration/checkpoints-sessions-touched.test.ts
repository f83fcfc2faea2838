/**
 * Parallel sessions, where a tool event names the files its tool wrote (`touched`, from the agent
 * hooks): the step its checkpoint closes is the session's for those files only, so another
 * session's file that the checkpoint happened to capture is neither restored nor deleted by this
 * session's `restore --prompt`. Hooks are played through `track` as src/hooks/agent-hook.ts calls it.
 */
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionRestoreResult } from '../../types/checkpoint.js';
import type { Checkpoints } from '../../src/checkpoints/index.js';
import { openCheckpoints, sessionHooks as session } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const read = (ws: string, path: string): string | null =>
  existsSync(join(ws, path)) ? readFileSync(join(ws, path), 'utf8') : null;

describe('tool events that name the files they wrote (touched)', () => {
  /** A PostToolUse whose tool says it wrote `touched`, as the agent hooks pass it. */
  const edit = (cp: Checkpoints, id: string, touched: string[]) =>
    cp.track('PostToolUse', { session: id, event: 'PostToolUse', unlessUnchanged: true, touched });
  /** What a checkpoint's message records of the paths its tool named. */
  const touchedOf = (cp: Checkpoints, ref: string): unknown => {
    const body = git(cp.workspace, [`--git-dir=${cp.location.gitDir}`, 'log', '-1', '--format=%B', ref]);
    const meta = JSON.parse(body.trim().split('\n').at(-1) as string) as { touched?: unknown };
    return meta.touched;
  };

  it("a person's file that a restore --prompt un-ignored is not the session's: its next restore --prompt leaves it", async () => {
    const ws = repoWithCommit({ '.gitignore': '', 'a.txt': 'a0\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    writeFiles(ws, { '.gitignore': 'local.env\n' });
    await edit(cp, 's', [join(ws, '.gitignore')]);
    writeFiles(ws, { 'local.env': 'API_KEY=secret\n' }); // a person's, ignored: in no checkpoint
    await s.prompt();
    // Puts back the empty .gitignore: the restore's checkpoint sees local.env, which it did not write.
    expect((await cp.restorePrompt(1, 's')).restored).toEqual([join(ws, '.gitignore')]);
    writeFiles(ws, { '.gitignore': '*.log\n' }); // the person's own rules since
    const r = await cp.restorePrompt(2, 's');
    expect([r.deleted, r.conflicts]).toEqual([[], [join(ws, '.gitignore')]]);
    expect(read(ws, 'local.env')).toBe('API_KEY=secret\n');
  });

  it("another session's file that the session's tool checkpoint captured is not the session's: restore --prompt neither deletes nor restores it", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n' });
    const cp = await openCheckpoints(ws);
    const [s1, s2] = [session(cp, 's1'), session(cp, 's2')];
    await s1.start();
    await s2.start();
    await s1.prompt();
    await s2.prompt();
    writeFiles(ws, { 's2.txt': 'by s2\n' }); // s2's Write; its hook has not run yet
    writeFiles(ws, { 'a.txt': 'a1\n' }); // s1's Edit
    await edit(cp, 's1', [join(ws, 'a.txt')]); // captures both
    expect((await edit(cp, 's2', [join(ws, 's2.txt')])).unchanged).toBe(true);

    const r = await cp.restorePrompt(1, 's1');
    expect([r.restored, r.deleted, r.conflicts]).toEqual([[join(ws, 'a.txt')], [], []]);
    expect([read(ws, 'a.txt'), read(ws, 's2.txt')]).toEqual(['a0\n', 'by s2\n']);
    // Nobody's: s2's restore does not take it either (its hook found nothing new).
    expect((await cp.restorePrompt(1, 's2', { dryRun: true })).deleted).toEqual([]);
  });

  it('a tool that names no file (a shell) still makes the whole step the session’s; a named directory covers what lies below it', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'd/x': 'x0\n' });
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    writeFiles(ws, { 'a.txt': 'a1\n', 'made.txt': 'm\n' });
    await s.tool();
    writeFiles(ws, { 'd/x': 'x1\n', 'd/y/new': 'n\n', 'other.txt': 'o\n' });
    await edit(cp, 's', [join(ws, 'd')]);
    const r = await cp.restorePrompt(1, 's');
    expect(r.restored.sort()).toEqual([join(ws, 'a.txt'), join(ws, 'd/x')]);
    expect(r.deleted.sort()).toEqual([join(ws, 'd/y/new'), join(ws, 'made.txt')]);
    expect(read(ws, 'other.txt')).toBe('o\n');
  });

  it('paths are placed as git paths through links in their directories; outside the workspace or in .git they are ignored; none inside, or more than 100: the whole step', async () => {
    const ws = repoWithCommit({ 'd/x': 'x0\n', 'a.txt': 'a0\n' });
    symlinkSync('d', join(ws, 'link'));
    const outside = tempDir('agentgate-touched-outside-');
    const cp = await openCheckpoints(ws);
    const s = session(cp, 's');
    await s.start();
    await s.prompt();
    const step = async (files: Record<string, string>, touched: string[]) => {
      writeFiles(ws, files);
      return touchedOf(cp, (await edit(cp, 's', touched)).ref);
    };
    expect(
      await step({ 'd/x': 'x1\n', 'a.txt': 'a1\n' }, [
        join(ws, 'link/x'),
        'sub/../a.txt',
        join(outside, 'f'),
        join(ws, '.git/config'),
        join(ws, 'a.txt'),
      ]),
    ).toEqual(['a.txt', 'd/x']);
    expect(await step({ 'a.txt': 'a2\n' }, [join(outside, 'f'), join(ws, 'link/../../elsewhere')])).toBe(
      undefined,
    );
    const many = Array.from({ length: 101 }, (_, i) => join(ws, `f${i}`));
    expect(await step({ 'a.txt': 'a3\n' }, many)).toBeUndefined();
    expect(await step({ 'a.txt': 'a4\n' }, many.slice(0, 100))).toHaveLength(100);
  });

  it("past keep, a session's run of tool checkpoints thinned into one keeps every file its tools named, and not another session's", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const cp = await openCheckpoints(ws);
    const [s1, s2] = [session(cp, 's1'), session(cp, 's2')];
    await s1.start();
    await s2.start();
    await s1.prompt();
    writeFiles(ws, { 's2.txt': 'by s2\n', 'a.txt': 'a1\n' });
    const first = await edit(cp, 's1', [join(ws, 'a.txt')]);
    writeFiles(ws, { 'b.txt': 'b1\n' });
    await edit(cp, 's1', [join(ws, 'b.txt')]);
    // Thinning drops the first (it deletes its ref, as upkeep.ts does): the second covers both steps.
    git(ws, [`--git-dir=${cp.location.gitDir}`, 'update-ref', '-d', first.ref]);
    const r = await cp.restorePrompt(1, 's1');
    expect([r.restored.sort(), r.deleted, r.conflicts]).toEqual([
      [join(ws, 'a.txt'), join(ws, 'b.txt')],
      [],
      [],
    ]);
    expect(read(ws, 's2.txt')).toBe('by s2\n');
  });

  it('through the CLI: hook claude-code events of two sessions, then checkpoint restore --prompt 1 --session S1 leaves S2’s file', () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n' });
    const home = tempDir('agentgate-sessions-home-');
    const hook = (hook_event_name: string, session_id: string, tool?: [string, string]) => {
      const event = {
        hook_event_name,
        session_id,
        cwd: ws,
        source: 'startup',
        prompt: 'go',
        ...(tool === undefined ? {} : { tool_name: tool[0], tool_input: { file_path: tool[1] } }),
      };
      const res = runCli(['hook', 'claude-code', '--home', home], { input: JSON.stringify(event) });
      expect([res.status, res.stdout]).toEqual([0, '']);
    };
    for (const id of ['S1', 'S2']) hook('SessionStart', id);
    for (const id of ['S1', 'S2']) hook('UserPromptSubmit', id);
    writeFiles(ws, { 's2.txt': 'by S2\n', 'a.txt': 'a1\n' });
    hook('PostToolUse', 'S1', ['Edit', join(ws, 'a.txt')]);
    hook('PostToolUse', 'S2', ['Write', join(ws, 's2.txt')]);
    const restore = runCli([
      'checkpoint',
      'restore',
      '--prompt',
      '1',
      '--session',
      'S1',
      '--json',
      '-C',
      ws,
      '--home',
      home,
    ]);
    expect(restore.status, restore.stderr).toBe(0);
    expect(SessionRestoreResult.parse(restore.json())).toMatchObject({
      restored: [join(ws, 'a.txt')],
      deleted: [],
      conflicts: [],
    });
    expect([read(ws, 'a.txt'), read(ws, 's2.txt')]).toEqual(['a0\n', 'by S2\n']);
  });

  it("thinning keeps a tool checkpoint that names its files when the next one does not: a person's file stays nobody's", async () => {
    const ws = repoWithCommit({ 'README.md': 'base\n' });
    const cp = await openCheckpoints(ws, { keep: 1 });
    const a = session(cp, 'A');
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'a.txt': 'a\n', 'p.txt': 'PERSONAL\n' });
    await edit(cp, 'A', [join(ws, 'a.txt')]);
    writeFiles(ws, { 'c.txt': 'c\n' });
    await a.tool();
    await a.prompt(); // thinning runs here
    const plan = await cp.restorePrompt(1, 'A', { dryRun: true });
    expect(plan.deleted.sort()).toEqual([join(ws, 'a.txt'), join(ws, 'c.txt')]);
  });

  it("thinning does not join a step to the safety checkpoint of a restore by hand, and a restore that wrote nothing leaves the next change the session's", async () => {
    const ws = repoWithCommit({ 'README.md': 'base\n' });
    const cp = await openCheckpoints(ws, { keep: 1 });
    const a = session(cp, 'A');
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'x.txt': 'x\n' });
    await edit(cp, 'A', [join(ws, 'x.txt')]);
    const mark = await cp.track('mark');
    writeFiles(ws, { 'y.txt': 'y\n' });
    await edit(cp, 'A', [join(ws, 'y.txt')]);
    await cp.restore(mark.hash);
    writeFiles(ws, { 'a1.txt': '1\n' });
    await edit(cp, 'A', [join(ws, 'a1.txt')]);
    writeFiles(ws, { 'a2.txt': '2\n' });
    await edit(cp, 'A', [join(ws, 'a2.txt')]);
    await a.prompt(); // thinning runs here
    expect((await cp.restorePrompt(1, 'A', { dryRun: true })).deleted).toContain(join(ws, 'a2.txt'));

    // A restore of the session's that writes nothing (all in conflict) takes nothing from its next change.
    writeFiles(ws, { 'x.txt': 'a person\n' });
    const blocked = await cp.restorePrompt(2, 'A');
    expect([blocked.restored, blocked.deleted]).toEqual([[], []]);
    writeFiles(ws, { 'z.txt': 'z\n' });
    await edit(cp, 'A', [join(ws, 'z.txt')]);
    expect((await cp.restorePrompt(2, 'A', { dryRun: true })).deleted).toEqual([join(ws, 'z.txt')]);
  });
});

describe('restore --prompt --force where something of someone else stands in the way', () => {
  it('is still RESTORE_CONFLICT (exit 3), and says nothing was overwritten', async () => {
    const ws = repoWithCommit({ f: 'f\n' });
    const home = tempDir('agentgate-cp-home-');
    const cp = await openCheckpoints(ws, { home });
    const a = session(cp, 'A');
    await a.start();
    await a.prompt();
    git(ws, ['rm', '-q', 'f']);
    await a.tool();
    writeFiles(ws, { 'f/p.txt': 'a person\n' });
    const res = runCli(
      ['checkpoint', 'restore', '--prompt', '1', '--session', 'A', '--force', '--json', '-C', ws],
      {
        env: { AGENTGATE_HOME: home },
      },
    );
    expect(res.status).toBe(3);
    expect((res.json() as { error: { code: string } }).error.code).toBe('RESTORE_CONFLICT');
    expect(read(ws, 'f/p.txt')).toBe('a person\n');
  });

  it('--dry-run --force plans what the real run does: a file of another session where the directory was', async () => {
    const ws = repoWithCommit({ 'd/x.txt': 'x\n', 'd/y.txt': 'y\n', 'k.txt': 'k0\n' });
    const home = tempDir('agentgate-cp-home-');
    const cp = await openCheckpoints(ws, { home });
    const [a, b] = [session(cp, 'A'), session(cp, 'B')];
    await a.start();
    await b.start();
    await a.prompt();
    git(ws, ['rm', '-q', '-r', 'd']);
    writeFiles(ws, { 'k.txt': 'k1\n' });
    await a.tool();
    await b.prompt();
    writeFiles(ws, { d: "B's file\n" });
    await cp.track('PostToolUse', { session: 'B', event: 'PostToolUse', touched: [join(ws, 'd')] });

    const pick = (r: Pick<SessionRestoreResult, 'restored' | 'deleted' | 'conflicts' | 'leftAlone'>) => ({
      restored: r.restored,
      deleted: r.deleted,
      conflicts: r.conflicts,
      leftAlone: r.leftAlone,
    });
    const plan = await cp.restorePrompt(1, 'A', { force: true, dryRun: true });
    const blocked = [join(ws, 'd/x.txt'), join(ws, 'd/y.txt')];
    expect(pick(plan)).toEqual({
      restored: [join(ws, 'k.txt')],
      deleted: [],
      conflicts: blocked,
      leftAlone: blocked,
    });
    const res = runCli(
      ['checkpoint', 'restore', '--prompt', '1', '--session', 'A', '--force', '--json', '-C', ws],
      {
        env: { AGENTGATE_HOME: home },
      },
    );
    expect(res.status).toBe(3);
    const error = (res.json() as { error: { code: string; details: SessionRestoreResult } }).error;
    expect(error.code).toBe('RESTORE_CONFLICT');
    expect(pick(error.details)).toEqual(pick(plan));
    expect([read(ws, 'd'), read(ws, 'k.txt')]).toEqual(["B's file\n", 'k0\n']);
  });
});
