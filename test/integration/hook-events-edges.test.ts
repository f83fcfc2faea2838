/**
 * Events at the edges of what the adapters read: a Windsurf prompt of tens of megabytes of raw
 * newlines (numbered, recorded and logged within the budget), a hook whose event loop was held
 * past its budget (still logged), a Copilot payload whose own event name disagrees with --event,
 * and an event that names no workspace, or only a relative one (never the hook's own directory).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../types/checkpoint.js';
import { runEventHook } from '../../src/hooks/index.js';
import { MAX_EVENT_VALUES } from '../../src/hooks/json-depth.js';
import { MAX_REPAIRED, STRING_KEEP, parseLenientJson } from '../../src/hooks/lenient-json.js';
import { CLI, runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

function logOf(home: string): string {
  return readFileSync(join(home, 'logs/hooks.log'), 'utf8');
}

function prompts(ws: string, home: string): number[] {
  const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
  return (list.json() as CheckpointEntry[]).flatMap((e) => (e.prompt === undefined ? [] : [e.prompt])).sort();
}

const windsurfPrompt = (session: string, prompt: string) =>
  `{"agent_action_name":"pre_user_prompt","trajectory_id":"${session}","tool_info":{"user_prompt":"${prompt}"}}`;

describe('a very large Windsurf event (raw control characters in its strings)', () => {
  it('the repair keeps the first STRING_KEEP characters of a long string and says it cut', () => {
    const text = windsurfPrompt('t', `a\n${'\n'.repeat(STRING_KEEP)}z`);
    const { value, cut } = parseLenientJson(text);
    const prompt = (value as { tool_info: { user_prompt: string } }).tool_info.user_prompt;
    expect([prompt.length, prompt.startsWith('a\n'), cut]).toEqual([STRING_KEEP, true, true]);
    expect(parseLenientJson(windsurfPrompt('t', 'a\nb')).cut).toBe(false);
  });

  it('millions of small strings to repair: only the first MAX_REPAIRED are, the rest emptied; the fields read survive', () => {
    const junk = new Array(MAX_REPAIRED + 5).fill('"a\nb"').join(',');
    const text = `{"junk":[${junk}],"agent_action_name":"pre_user_prompt","trajectory_id":"t","tool_info":{"user_prompt":"p\nq"}}`;
    const { value, cut } = parseLenientJson(text);
    const v = value as { junk: string[]; trajectory_id: string; tool_info: { user_prompt: string } };
    expect([v.junk[0], v.junk.at(-1), v.junk.length, v.trajectory_id, cut]).toEqual([
      'a\nb',
      '',
      MAX_REPAIRED + 5,
      't',
      true,
    ]);
    // The prompt needed repair past the cap too: emptied, but the event still counts as a prompt.
    expect(v.tool_info.user_prompt).toBe('');
  });

  it('the event and session are known to the caller once read (the last-resort log line names them)', async () => {
    const seen: { event?: string; session?: string } = {};
    const home = tempDir();
    await runEventHook('windsurf', windsurfPrompt('t-seen', 'a\nb'), { home, cwd: repoWithCommit(), seen });
    expect(seen).toEqual({ event: 'pre_user_prompt', session: 't-seen' });
  });

  it('32 MB of prompt: numbered, recorded and logged; the next prompt is number 2', () => {
    const ws = repoWithCommit();
    const home = tempDir();
    const env = { AGENTGATE_HOME: home };
    const big = windsurfPrompt('t-big', `start${'\n'.repeat(32 * 1024 * 1024)}end`);
    const res = runCli(['hook', 'windsurf'], { input: big, cwd: ws, env });
    expect([res.status, res.stdout, res.stderr]).toEqual([0, '', '']);
    expect(logOf(home)).toMatch(
      /pre_user_prompt session=t-big recorded: before-prompt checkpoint \w+, prompt 1,.* cut/,
    );
    const next = runCli(['hook', 'windsurf'], {
      input: windsurfPrompt('t-big', 'small\nprompt'),
      cwd: ws,
      env,
    });
    expect(next.status).toBe(0);
    expect(prompts(ws, home)).toEqual([1, 2]);
  });
});

describe('a hook whose work outlasts hooks.timeoutMs (its event loop held)', () => {
  it('is ended with the carry-on answer, and the log says it was skipped', () => {
    const ws = repoWithCommit();
    const home = tempDir();
    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  timeoutMs: 300\n');
    // Holds the thread for a second inside the hook's parse of the event, as a huge parse would.
    const preload = join(tempDir(), 'hold.cjs');
    writeFileSync(
      preload,
      `const parse = JSON.parse;
JSON.parse = function (text, ...rest) {
  if (typeof text === 'string' && text.includes('hold-the-thread'))
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  return parse.call(this, text, ...rest);
};`,
    );
    const event = { hook_event_name: 'BeforeAgent', session_id: 'hold-the-thread', cwd: ws, prompt: 'p' };
    const res = spawnSync(process.execPath, ['--require', preload, CLI, 'hook', 'gemini'], {
      input: JSON.stringify(event),
      cwd: ws,
      env: { ...process.env, AGENTGATE_HOME: home },
      encoding: 'utf8',
    });
    expect([res.status, res.stdout]).toEqual([0, '{}\n']);
    expect(res.stderr).toMatch(/skipped: not done within hooks\.timeoutMs \(300 ms\)/);
    expect(logOf(home)).toMatch(
      /gemini BeforeAgent session=hold-the-thread skipped: not done within hooks\.timeoutMs \(300 ms\): left unfinished/,
    );
  });
});

describe('Copilot: a payload that names its event and an --event that says otherwise', () => {
  it('the payload`s own name wins (a PascalCase prompt is numbered) and the log names the conflict', async () => {
    const ws = repoWithCommit();
    const home = tempDir();
    const event = { hook_event_name: 'UserPromptSubmit', session_id: 'pascal-2', cwd: ws, prompt: 'go' };
    const o = await runEventHook('copilot', JSON.stringify(event), { home, event: 'postToolUse' });
    expect([o.status, o.prompt]).toEqual(['recorded', 1]);
    expect(o.message).toMatch(/--event postToolUse ignored: the payload names its event UserPromptSubmit/);
    expect(logOf(home)).toMatch(/UserPromptSubmit session=pascal-2 recorded: .*--event postToolUse ignored/);
  });
});

describe('an event that names no workspace', () => {
  it.each([
    [
      'cursor',
      { hook_event_name: 'beforeSubmitPrompt', conversation_id: 'c1', workspace_roots: [], prompt: 'x' },
      '{"continue":true}',
    ],
    ['cursor', { hook_event_name: 'stop', conversation_id: 'c1' }, '{}'],
    ['cline', { hookName: 'UserPromptSubmit', taskId: 'k1', workspaceRoots: [] }, '{"cancel": false}'],
    ['cline', { hookName: 'PostToolUse', taskId: 'k1' }, '{"cancel": false}'],
    // A relative root would be the hook's own directory: it counts as none.
    [
      'cursor',
      { hook_event_name: 'beforeSubmitPrompt', conversation_id: 'c1', workspace_roots: ['.'], prompt: 'x' },
      '{"continue":true}',
    ],
    ['cline', { hookName: 'UserPromptSubmit', taskId: 'k1', workspaceRoots: ['.'] }, '{"cancel": false}'],
    // So does a relative cwd, for every agent that reads one.
    [
      'cursor',
      { hook_event_name: 'sessionStart', conversation_id: 'c1', workspace_roots: [], cwd: '.' },
      '{}',
    ],
    ['claude-code', { hook_event_name: 'SessionStart', session_id: 's1', cwd: '.' }, ''],
    ['codex', { hook_event_name: 'SessionStart', session_id: 's1', cwd: '.' }, ''],
    ['qwen', { hook_event_name: 'Stop', session_id: 's1', cwd: 'sub' }, ''],
    ['copilot', { hook_event_name: 'SessionStart', session_id: 's1', cwd: '.' }, ''],
    ['gemini', { hook_event_name: 'SessionStart', session_id: 's1', cwd: './' }, '{}'],
  ] as const)(
    '%s %j: ignored and logged, the hook`s own directory is not checkpointed',
    async (agent, event, answer) => {
      const here = repoWithCommit();
      const home = tempDir();
      const o = await runEventHook(agent, JSON.stringify(event), { home, cwd: here, env: {} });
      expect([o.status, o.answer]).toEqual(['ignored', answer]);
      expect(o.message).toMatch(/names no workspace/);
      expect(logOf(home)).toMatch(/ignored: no checkpoint: the event names no workspace/);
      expect(existsSync(join(home, 'checkpoints'))).toBe(false);
    },
  );
});

describe('a tool event naming a file no stat can look at', () => {
  it('a name part over 255 bytes or a NUL byte (Cline, Claude Code, Windsurf): the step is still checkpointed', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('hook-odd-path-home-');
    const long = `${'x'.repeat(300)}/f`;
    writeFileSync(join(ws, 'a.txt'), 'two\n');
    const events: Array<[Parameters<typeof runEventHook>[0], object]> = [
      [
        'cline',
        {
          hookName: 'PostToolUse',
          taskId: 't',
          workspaceRoots: [ws],
          postToolUse: { toolName: 'write_to_file', parameters: { path: long } },
        },
      ],
      [
        'cline',
        {
          hookName: 'PostToolUse',
          taskId: 't',
          workspaceRoots: [ws],
          postToolUse: { toolName: 'write_to_file', parameters: { path: 'x\u0000y/f' } },
        },
      ],
      [
        'claude-code',
        {
          hook_event_name: 'PostToolUse',
          session_id: 's',
          cwd: ws,
          tool_name: 'Write',
          tool_input: { file_path: join(ws, long) },
        },
      ],
      [
        'windsurf',
        {
          agent_action_name: 'post_write_code',
          trajectory_id: 'w',
          tool_info: { file_path: join(ws, 'd\u0000/f') },
        },
      ],
    ];
    for (const [agent, event] of events) {
      const outcome = await runEventHook(agent, JSON.stringify(event), { home, cwd: ws });
      expect(outcome.status).toBe('recorded');
    }
    expect(logOf(home)).not.toContain('failed');
  });
});

describe('an event nested deeper than any agent`s (a hostile tool input)', () => {
  const nested = (depth: number, agent: 'claude-code' | 'windsurf', ws: string) => {
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    return agent === 'windsurf'
      ? `{"x":${deep},"agent_action_name":"pre_user_prompt","trajectory_id":"w","tool_info":{"user_prompt":"a\nb"}}`
      : `{"x":${deep},"session_id":"s","cwd":${JSON.stringify(ws)},"hook_event_name":"UserPromptSubmit","prompt":"p"}`;
  };

  it('is not parsed (JSON.parse takes about a microsecond a level, with every timer stopped): invalid, logged, the same answer', async () => {
    const ws = repoWithCommit();
    const home = tempDir();
    for (const agent of ['claude-code', 'windsurf'] as const) {
      const o = await runEventHook(agent, nested(1_000_000, agent, ws), { home, cwd: ws });
      expect([o.status, o.answer]).toEqual(['invalid', '']);
      expect(o.message).toMatch(/nests more than 10000 levels/);
    }
    expect(logOf(home)).toMatch(/claude-code invalid: stdin is not a JSON event: .*nests more than/);
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
    // Brackets in strings do not count; a real event's nesting is read as ever.
    const inStrings = `{"x":"${'['.repeat(20_000)}","session_id":"s","cwd":${JSON.stringify(ws)},"hook_event_name":"UserPromptSubmit"}`;
    expect((await runEventHook('claude-code', inStrings, { home, cwd: ws })).status).toBe('recorded');
    expect(
      (await runEventHook('claude-code', nested(500, 'claude-code', ws), { home, cwd: ws })).status,
    ).toBe('recorded');
    expect((await runEventHook('windsurf', nested(500, 'windsurf', ws), { home, cwd: ws })).status).toBe(
      'recorded',
    );
  });

  it('through the CLI: exit 0, the agent`s answer, nothing recorded', () => {
    const ws = repoWithCommit();
    const home = tempDir();
    const input = `{"x":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)},"hook_event_name":"stop","conversation_id":"c","workspace_roots":[${JSON.stringify(ws)}]}`;
    const res = runCli(['hook', 'cursor', '--home', home], { input, cwd: ws });
    expect([res.status, res.stdout]).toEqual([0, '{"continue":true}\n']);
    expect(res.stderr).toMatch(/nests more than/);
  });
});

describe('an event holding millions of values (a hostile tool input within the size limit)', () => {
  const withJunk = (junk: string, ws: string) =>
    `{"x":${junk},"session_id":"s","cwd":${JSON.stringify(ws)},"hook_event_name":"UserPromptSubmit","prompt":"p"}`;

  it('is not parsed (JSON.parse builds each value with every timer stopped: 64 MB of them took 20 to 40 s): invalid, logged', async () => {
    const ws = repoWithCommit();
    const home = tempDir();
    for (const junk of [
      `[${'{},'.repeat(MAX_EVENT_VALUES)}{}]`,
      `{${'"k":0,'.repeat(MAX_EVENT_VALUES / 2)}"z":0}`,
    ]) {
      const o = await runEventHook('claude-code', withJunk(junk, ws), { home, cwd: ws });
      expect([o.status, o.answer]).toEqual(['invalid', '']);
      expect(o.message).toMatch(/more than 500000 values and keys/);
    }
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
    // Separators inside strings do not count (a pasted CSV); a real event's values are read as ever.
    const csv = JSON.stringify('a,b:c,'.repeat(MAX_EVENT_VALUES));
    expect((await runEventHook('claude-code', withJunk(csv, ws), { home, cwd: ws })).status).toBe('recorded');
    const many = `[${'0,'.repeat(10_000)}0]`;
    expect((await runEventHook('claude-code', withJunk(many, ws), { home, cwd: ws })).status).toBe(
      'recorded',
    );
  });

  it('through the CLI: exit 0, the agent`s answer, nothing recorded', () => {
    const ws = repoWithCommit();
    const home = tempDir();
    const input = `{"x":[${'0,'.repeat(MAX_EVENT_VALUES)}0],"hook_event_name":"AfterAgent","session_id":"g","cwd":${JSON.stringify(ws)}}`;
    const res = runCli(['hook', 'gemini', '--home', home], { input, cwd: ws });
    expect([res.status, res.stdout]).toEqual([0, '{}\n']);
    expect(res.stderr).toMatch(/invalid: .*more than 500000 values and keys/);
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
  });
});
