/** examples/hooks/marvin-checkpoints.ts driven by a fake Marvin host: baseline, numbered turns, never a throw. */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import marvinCheckpoints, {
  type MarvinHookApi,
  type MarvinHookContext,
} from '../../examples/hooks/marvin-checkpoints.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { treeState } from '../helpers/checkpoints.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

type Handler = (event: unknown, ctx: MarvinHookContext) => Promise<void> | void;

/** A fake Marvin: records handlers by event and fires them as Marvin's loop would. */
function fakeMarvin() {
  const handlers = new Map<string, Handler[]>();
  const api: MarvinHookApi = {
    on: (event, handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
  };
  const fire = async (event: string, payload: unknown, ctx: MarvinHookContext) => {
    for (const h of handlers.get(event) ?? []) await h(payload, ctx);
  };
  return { api, handlers, fire };
}

function ctxFor(cwd: string): MarvinHookContext {
  return {
    cwd,
    configDir: tempDir('marvin-config-'),
    exec: vi.fn(async () => ({ code: 0, stdout: '', stderr: '' })),
  };
}

describe('Marvin hook (examples/hooks/marvin-checkpoints.ts)', () => {
  it('registers session.start, session.resume and turn.start; keeps a baseline and one numbered checkpoint per turn that restores', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const marvin = fakeMarvin();
    marvinCheckpoints(marvin.api);
    expect([...marvin.handlers.keys()].sort()).toEqual(['session.resume', 'session.start', 'turn.start']);

    const ctx = ctxFor(ws);
    await marvin.fire('session.start', {}, ctx);
    const beforeTurn1 = treeState(ws);
    await marvin.fire('turn.start', { turnIndex: 0 }, ctx);
    writeFiles(ws, { 'a.txt': 'two\n', 'b.txt': 'new\n' });
    const beforeTurn2 = treeState(ws);
    await marvin.fire('turn.start', { turnIndex: 1 }, ctx);
    rmSync(join(ws, 'a.txt'));
    await marvin.fire('session.resume', {}, ctx);

    const cp = await Checkpoints.open(ws);
    const entries = (await cp.list()).reverse();
    // Turn 1's change is recorded at turn 2's start, as the session's own, before turn 2's checkpoint.
    expect(entries.map((e) => [e.event, e.prompt, e.role])).toEqual([
      ['session.start', undefined, 'baseline'],
      ['turn.start', 1, 'prompt'],
      ['turn.start', undefined, 'change'],
      ['turn.start', 2, 'prompt'],
      ['session.resume', undefined, 'baseline'],
    ]);
    expect(new Set(entries.map((e) => e.session)).size).toBe(1);
    expect((await cp.markers()).baseline?.event).toBe('session.resume');
    // restore --prompt 1 puts back what the session did since turn 1 (b.txt goes); a.txt, deleted
    // after the session's last checkpoint, is no change of the session's and is left as a conflict.
    const undone = await cp.restorePrompt(1);
    expect([undone.deleted, undone.conflicts]).toEqual([[join(ws, 'b.txt')], [join(ws, 'a.txt')]]);
    await cp.restore((await cp.beforePrompt(2)).hash);
    expect(treeState(ws)).toEqual(beforeTurn2);
    await cp.restore((await cp.beforePrompt(1)).hash);
    expect(treeState(ws)).toEqual(beforeTurn1);
    expect(ctx.exec).not.toHaveBeenCalled();
  });

  it('never throws: a cwd that is gone, an unsafe cwd, and a config that cannot be read each become a log line', async () => {
    const marvin = fakeMarvin();
    marvinCheckpoints(marvin.api);
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gone = tempDir('marvin-gone-');
    rmSync(gone, { recursive: true });
    await expect(marvin.fire('session.start', {}, ctxFor(gone))).resolves.toBeUndefined();
    await expect(marvin.fire('turn.start', {}, ctxFor('/'))).resolves.toBeUndefined();
    const home = process.env.AGENTGATE_HOME as string;
    process.env.AGENTGATE_HOME = tempDir('marvin-home-');
    writeFiles(process.env.AGENTGATE_HOME, { 'config.yaml': 'hooks: [1, 2]\n' });
    await expect(marvin.fire('turn.start', {}, ctxFor(repoWithCommit()))).resolves.toBeUndefined();
    const log = readFileSync(join(process.env.AGENTGATE_HOME, 'logs/hooks.log'), 'utf8');
    process.env.AGENTGATE_HOME = home;
    expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/^\[agentgate\] session\.start: failed: .*WORKSPACE_NOT_FOUND/),
      expect.stringMatching(/^\[agentgate\] turn\.start: failed: .*UNSAFE_WORKSPACE/),
      expect.stringMatching(/^\[agentgate\] turn\.start: failed: .*CONFIG_INVALID/),
    ]);
    expect(log).toMatch(/marvin turn\.start session=marvin-\S+ failed: checkpoint failed: CONFIG_INVALID/);
    stderr.mockRestore();
  });
});
