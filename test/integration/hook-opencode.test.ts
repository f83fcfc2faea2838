/** examples/hooks/opencode-checkpoints.ts under a fake OpenCode host: baseline, numbered prompts, tools, idle, never a throw. */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import OpenCodeCheckpoints, { type OpenCodeHooks } from '../../examples/hooks/opencode-checkpoints.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { treeState } from '../helpers/checkpoints.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** A fake OpenCode: loads the plugin for a project and drives a session as OpenCode's loop would. */
async function fakeOpenCode(worktree: string) {
  const hooks: OpenCodeHooks = await OpenCodeCheckpoints({ directory: worktree, worktree });
  const sessionID = 'ses_4c1a9e0b2ffeXk7Q2mR8tWz';
  return {
    created: () =>
      hooks.event({ event: { type: 'session.created', properties: { info: { id: sessionID } } } }),
    prompt: (text: string) =>
      hooks['chat.message'](
        { sessionID },
        {
          parts: [
            { type: 'text', text },
            { type: 'text', text: 'file context', synthetic: true },
          ],
        },
      ),
    tool: (tool: string) =>
      hooks['tool.execute.after'](
        { tool, sessionID, callID: `call_${tool}` },
        { title: tool, output: '', metadata: {} },
      ),
    idle: () => hooks.event({ event: { type: 'session.idle', properties: { sessionID } } }),
    sessionID,
  };
}

describe('OpenCode plugin (examples/hooks/opencode-checkpoints.ts)', () => {
  it('a baseline on session.created, a numbered checkpoint per message, the latest after edit and shell tools and at session.idle; each prompt restores', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const oc = await fakeOpenCode(ws);
    await oc.created();
    const before1 = treeState(ws);
    await oc.prompt('Add a factorial function');
    writeFiles(ws, { 'factorial.py': 'def factorial(n): return 1\n' });
    await oc.tool('write');
    await oc.tool('read'); // a read-only tool keeps nothing
    execSync('echo two > a.txt', { cwd: ws });
    await oc.tool('bash');
    const before2 = treeState(ws);
    await oc.prompt('Now test it');
    writeFiles(ws, { 'test.py': 'assert True\n' });
    await oc.idle();

    const cp = await Checkpoints.open(ws);
    const entries = (await cp.list()).reverse();
    expect(entries.map((e) => [e.event, e.prompt, e.session])).toEqual([
      ['session.created', undefined, oc.sessionID],
      ['chat.message', 1, oc.sessionID],
      ['tool.execute.after', undefined, oc.sessionID],
      ['tool.execute.after', undefined, oc.sessionID],
      ['chat.message', 2, oc.sessionID],
      ['session.idle', undefined, oc.sessionID],
    ]);
    expect(entries[1]?.label).toBe('chat.message: Add a factorial function');
    expect(entries[2]?.label).toBe('tool.execute.after write');
    await cp.restore((await cp.beforePrompt(1, oc.sessionID)).hash);
    expect(treeState(ws)).toEqual(before1);
    await cp.restore((await cp.beforePrompt(2, oc.sessionID)).hash);
    expect(treeState(ws)).toEqual(before2);
  });

  it('never throws: a worktree that is gone, a session id that is not one, an invalid config each become a log line', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gone = tempDir('opencode-gone-');
    rmSync(gone, { recursive: true });
    const lost = await fakeOpenCode(gone);
    await expect(lost.prompt('hi')).resolves.toBeUndefined();
    const hooks = await OpenCodeCheckpoints({ directory: repoWithCommit() });
    await expect(
      hooks.event({ event: { type: 'session.idle', properties: { sessionID: 42 } } }),
    ).resolves.toBeUndefined();
    await expect(hooks.event({ event: { type: 'file.edited' } })).resolves.toBeUndefined();
    const home = process.env.AGENTGATE_HOME as string;
    process.env.AGENTGATE_HOME = tempDir('opencode-home-');
    writeFiles(process.env.AGENTGATE_HOME, { 'config.yaml': 'hooks: [1, 2]\n' });
    await expect((await fakeOpenCode(repoWithCommit())).idle()).resolves.toBeUndefined();
    const log = readFileSync(join(process.env.AGENTGATE_HOME, 'logs/hooks.log'), 'utf8');
    process.env.AGENTGATE_HOME = home;
    expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/^\[agentgate\] chat\.message: failed: .*WORKSPACE_NOT_FOUND/),
      expect.stringMatching(/^\[agentgate\] session\.idle: invalid: no session id/),
      expect.stringMatching(/^\[agentgate\] session\.idle: failed: .*CONFIG_INVALID/),
    ]);
    expect(log).toMatch(/opencode session\.idle session=ses_\S+ failed: checkpoint failed: CONFIG_INVALID/);
    stderr.mockRestore();
  });

  it('every handler is total: null, undefined and odd shapes resolve; a missing session id is logged, not skipped silently', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const logFile = join(process.env.AGENTGATE_HOME as string, 'logs/hooks.log');
    const logged = existsSync(logFile) ? readFileSync(logFile, 'utf8').length : 0;
    const ws = repoWithCommit();
    const hooks = await OpenCodeCheckpoints({ directory: ws, worktree: ws });
    const loose = hooks as unknown as Record<string, (...args: unknown[]) => Promise<void>>;
    const calls: Array<[string, unknown[]]> = [
      ['event', [{ event: null }]],
      ['event', [undefined]],
      ['event', [{ event: { type: 'session.created', properties: { info: null } } }]],
      ['chat.message', [{ sessionID: 's' }, undefined]],
      ['chat.message', [{ sessionID: 's' }, { parts: [null, 7, { type: 'text', text: 42 }] }]],
      ['chat.message', [undefined, { parts: 'not a list' }]],
      ['tool.execute.after', [undefined, {}]],
      ['tool.execute.after', [{ tool: 'edit' }, null]],
    ];
    for (const [name, args] of calls)
      await expect(loose[name]?.(...args), `${name} ${JSON.stringify(args)}`).resolves.toBeUndefined();
    // The two messages with a session id are numbered checkpoints, their text parts unreadable.
    const entries = (await (await Checkpoints.open(ws)).list()).reverse();
    expect(entries.map((e) => [e.event, e.prompt, e.label])).toEqual([
      ['chat.message', 1, 'chat.message'],
      ['chat.message', 2, 'chat.message'],
    ]);
    const log = readFileSync(logFile, 'utf8').slice(logged);
    expect(log.match(/opencode \S+ invalid: no session id/g)).toEqual([
      'opencode session.created invalid: no session id',
      'opencode chat.message invalid: no session id',
      'opencode tool.execute.after invalid: no session id',
    ]);
    expect(stderr).toHaveBeenCalledTimes(3);
    stderr.mockRestore();
  });
});
