/**
 * An optional field that is null, or an informative one of another shape, reads as absent: the
 * event is still checkpointed. Only an unusable essential field (event name, session) refuses it.
 */
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { runEventHook } from '../../src/hooks/index.js';
import { agentEvent, eventOfFixture } from '../helpers/agent-hooks.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

type Spoil = (e: Record<string, Record<string, unknown>>) => void;

function fire(agent: HookAgent, name: string, spoil: Spoil) {
  const ws = repoWithCommit();
  const home = tempDir('agentgate-fields-home-');
  const event = JSON.parse(agentEvent(agent, name, ws)) as Record<string, Record<string, unknown>>;
  spoil(event);
  writeFiles(ws, { 'factorial.py': 'changed\n' });
  const opts = { home, cwd: ws, ...(agent === 'copilot' ? { event: eventOfFixture(name) } : {}) };
  return { ws, home, outcome: runEventHook(agent, JSON.stringify(event), opts) };
}

describe('fields the adapter does not need', () => {
  it.each<[HookAgent, string, string, Spoil]>([
    ['cursor', 'afterShellExecution', 'generation_id null', (e) => void (e.generation_id = null as never)],
    ['cursor', 'stop', 'status null', (e) => void (e.status = null as never)],
    ['cursor', 'afterShellExecution', 'cwd ""', (e) => void (e.cwd = '' as never)],
    [
      'cursor',
      'afterShellExecution',
      'workspace_roots null (its cwd the root)',
      (e) => {
        e.cwd = (e.workspace_roots as unknown as string[])[0] as never;
        e.workspace_roots = null as never;
      },
    ],
    [
      'cursor',
      'afterFileEdit',
      'workspace_roots [null, 5, "", root]',
      (e) => void (e.workspace_roots = [null, 5, '', ...(e.workspace_roots as unknown as string[])] as never),
    ],
    [
      'cline',
      'PostToolUse-write_to_file',
      'workspaceRoots [null, root]',
      (e) => void (e.workspaceRoots = [null, ...(e.workspaceRoots as unknown as string[])] as never),
    ],
    ['windsurf', 'post_run_command', 'execution_id null', (e) => void (e.execution_id = null as never)],
    ['cline', 'PostToolUse-write_to_file', 'success null', (e) => void (e.postToolUse!.success = null)],
    ['cline', 'PostToolUse-write_to_file', 'success "true"', (e) => void (e.postToolUse!.success = 'true')],
    ['cline', 'PostToolUse-write_to_file', 'toolName 5', (e) => void (e.postToolUse!.toolName = 5)],
    ['cline', 'TaskStart', 'taskMetadata null', (e) => void (e.taskStart!.taskMetadata = null)],
    ['cline', 'UserPromptSubmit', 'userPromptSubmit null', (e) => void (e.userPromptSubmit = null as never)],
    ['gemini', 'SessionStart', 'source null', (e) => void (e.source = null as never)],
    ['gemini', 'AfterTool-write_file', 'tool_name null', (e) => void (e.tool_name = null as never)],
    ['copilot', 'sessionStart', 'source null', (e) => void (e.source = null as never)],
    ['copilot', 'postToolUse-bash', 'toolName null', (e) => void (e.toolName = null as never)],
    ['codex', 'SessionStart', 'source null', (e) => void (e.source = null as never)],
    ['codex', 'PostToolUse-shell', 'tool_name 7', (e) => void (e.tool_name = 7 as never)],
    ['codex', 'UserPromptSubmit', 'prompt null', (e) => void (e.prompt = null as never)],
    [
      'codex',
      'UserPromptSubmit',
      'session_id null beside thread_id',
      (e) => {
        e.session_id = null as never;
        e.thread_id = 't-1' as never;
      },
    ],
    ['claude-code', 'PostToolUse', 'tool_name null', (e) => void (e.tool_name = null as never)],
  ])('%s %s with %s: recorded', async (agent, name, _what, spoil) => {
    const { ws, home, outcome } = fire(agent, name, spoil);
    const o = await outcome;
    expect(o.status, o.message).toBe('recorded');
    expect(await (await Checkpoints.open(ws, { home })).list()).toHaveLength(1);
  });

  it.each<[HookAgent, string, string, Spoil]>([
    ['cursor', 'stop', 'conversation_id null', (e) => void (e.conversation_id = null as never)],
    ['cursor', 'stop', 'hook_event_name 5', (e) => void (e.hook_event_name = 5 as never)],
    ['codex', 'Stop', 'session_id 5', (e) => void (e.session_id = 5 as never)],
    ['codex', 'Stop', 'session_id null alone', (e) => void (e.session_id = null as never)],
    ['windsurf', 'post_run_command', 'trajectory_id null', (e) => void (e.trajectory_id = null as never)],
    ['cline', 'TaskComplete', 'taskId null', (e) => void (e.taskId = null as never)],
  ])('%s %s with %s (essential): invalid, no checkpoint', async (agent, name, _what, spoil) => {
    const { ws, home, outcome } = fire(agent, name, spoil);
    expect((await outcome).status).toBe('invalid');
    expect(await (await Checkpoints.open(ws, { home })).list()).toEqual([]);
  });
});

describe('a session id that no argument can hold', () => {
  it.each([
    ['a lone surrogate', 'ab\ud800'],
    ['a NUL', 'ab\u0000'],
  ])('with %s: recorded as U+FFFD, so that restore --prompt N --session ID reaches it', async (_what, id) => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-fields-home-');
    const event = { session_id: id, hook_event_name: 'UserPromptSubmit', cwd: ws, prompt: 'p\ud800' };
    const o = await runEventHook('claude-code', JSON.stringify(event), { home, cwd: ws });
    expect(o.status, o.message).toBe('recorded');
    const cp = await Checkpoints.open(ws, { home });
    const [entry] = await cp.list();
    expect([entry?.session, entry?.label?.isWellFormed()]).toEqual(['ab\uFFFD', true]);
    expect((await cp.beforePrompt(1, 'ab\uFFFD')).hash).toBe(entry?.hash);
  });
});

describe('a workspace of more folders than are read', () => {
  it.each<[HookAgent, string]>([
    ['cursor', 'afterShellExecution'],
    ['cline', 'PostToolUse-write_to_file'],
  ])('%s %s with 150 roots: checkpointed in the first', async (agent, name) => {
    const key = agent === 'cursor' ? 'workspace_roots' : 'workspaceRoots';
    const { ws, home, outcome } = fire(agent, name, (e) => {
      const [root] = e[key] as unknown as string[];
      e[key] = [root, ...Array.from({ length: 149 }, (_, i) => `${root}-other-${i}`)] as never;
    });
    const o = await outcome;
    expect(o.status, o.message).toBe('recorded');
    expect(await (await Checkpoints.open(ws, { home })).list()).toHaveLength(1);
  });
});
