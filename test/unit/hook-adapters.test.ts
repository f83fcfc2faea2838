/** The small pure parts of the agent hooks: lenient JSON, Windows paths, our command and how it is recognised. */
import { describe, expect, it, vi } from 'vitest';
import { hookCommand, isOurCommand, shellWord } from '../../src/hooks/install/command.js';
import { escapeControlCharsInStrings } from '../../src/hooks/lenient-json.js';
import { nativePath } from '../../src/hooks/workspace.js';
import { ADAPTERS } from '../../src/hooks/index.js';
import { patchPaths } from '../../src/hooks/adapter.js';
import type { HookAgent } from '../../types/hook-agents.js';
import { agentEvent } from '../helpers/agent-hooks.js';

describe('escapeControlCharsInStrings (Windsurf)', () => {
  it('escapes raw control characters inside strings only; valid JSON parses exactly as before', () => {
    const raw = '{"a":"line1\nline2\ttab\u0001","b":"q\\"\n"}';
    expect(JSON.parse(escapeControlCharsInStrings(raw))).toEqual({ a: 'line1\nline2\ttab\u0001', b: 'q"\n' });
    const valid = '{\n  "x": "a\\nb\\\\",\n  "y": [1, "\\"]"]\n}';
    expect(escapeControlCharsInStrings(valid)).toBe(valid);
    // Outside strings nothing changes: broken JSON stays broken.
    expect(() => JSON.parse(escapeControlCharsInStrings('{"a": \u0001 1}'))).toThrow();
  });
});

describe('nativePath (Cursor on Windows)', () => {
  it('turns /c:/Users/... into c:/Users/... on Windows only', () => {
    expect(nativePath('/c:/Users/dev/project', 'win32')).toBe('c:/Users/dev/project');
    expect(nativePath('/C:\\Users\\dev', 'win32')).toBe('C:\\Users\\dev');
    expect(nativePath('/c:/Users/dev', 'linux')).toBe('/c:/Users/dev');
    expect(nativePath('/home/dev/project', 'win32')).toBe('/home/dev/project');
  });
});

describe('our hook command', () => {
  const runner = {
    node: '/usr/bin/node',
    bin: '/opt/my tools/agentgate-snapshotter/dist/bin/agentgate-snapshot.js',
  };

  it('runs the installed bin with node directly, each word quoted for sh', () => {
    expect(hookCommand(runner, 'codex')).toBe(
      "/usr/bin/node '/opt/my tools/agentgate-snapshotter/dist/bin/agentgate-snapshot.js' hook codex",
    );
    expect(hookCommand(runner, 'copilot', 'postToolUse')).toMatch(/ hook copilot --event postToolUse$/);
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });

  it('is recognised as ours for its agent only; other commands are not', () => {
    expect(isOurCommand(hookCommand(runner, 'codex'), 'codex')).toBe(true);
    expect(isOurCommand(hookCommand(runner, 'codex'), 'gemini')).toBe(false);
    expect(isOurCommand('npx agentgate-snapshot hook gemini', 'gemini')).toBe(true);
    expect(isOurCommand('my-linter --fix', 'codex')).toBe(false);
    expect(isOurCommand('agentgate-snapshot hook codex --home /h', 'codex')).toBe(true);
    // A command of the user's that wraps ours (a timeout, an echo) is theirs.
    expect(isOurCommand('timeout 30 agentgate-snapshot hook claude-code', 'claude-code')).toBe(false);
    expect(isOurCommand('echo agentgate-snapshot hook claude-code', 'claude-code')).toBe(false);
    expect(isOurCommand('nice node /x/agentgate-snapshot.js hook codex', 'codex')).toBe(false);
    expect(isOurCommand(42, 'codex')).toBe(false);
  });
});

describe('adapters', () => {
  it('an event name that is an Object prototype key is no event', () => {
    const o = ADAPTERS['claude-code'].map(
      { session_id: 's', cwd: '/tmp', hook_event_name: 'constructor' },
      {},
    );
    expect(o).toMatchObject({ status: 'ignored' });
  });
});

describe('the files a tool event names (touched)', () => {
  const touchedOf = (agent: HookAgent, raw: unknown, event?: string): unknown => {
    const m = ADAPTERS[agent].map(raw, { event });
    if (!('mapped' in m)) throw new Error(m.message);
    return m.mapped.touched;
  };
  const fixture = (agent: HookAgent, name: string) => JSON.parse(agentEvent(agent, name, '/ws')) as unknown;

  it.each([
    ['claude-code', 'PostToolUse', undefined, ['/ws/factorial.py']],
    ['qwen', 'PostToolUse-write_file', undefined, ['/ws/factorial.py']],
    ['gemini', 'AfterTool-write_file', undefined, ['/ws/factorial.py']],
    ['cursor', 'afterFileEdit', undefined, ['/ws/factorial.py']],
    ['windsurf', 'post_write_code', undefined, ['/ws/factorial.py']],
    ['cline', 'PostToolUse-write_to_file', undefined, ['factorial.py']],
    ['cline', 'sdk-tool_result-editor', undefined, ['factorial.py']],
    ['codex', 'PostToolUse-apply_patch', undefined, ['factorial.py']],
    ['copilot', 'postToolUse-create', 'postToolUse', ['/ws/factorial.py']],
  ] as const)('%s %s: the path its documented field names', (agent, name, event, want) => {
    expect(touchedOf(agent, fixture(agent, name), event)).toEqual(want);
  });

  it.each([
    ['codex', 'PostToolUse-shell', undefined],
    ['gemini', 'AfterTool-run_shell_command', undefined],
    ['cursor', 'afterShellExecution', undefined],
    ['windsurf', 'post_run_command', undefined],
    ['cline', 'PostToolUse-execute_command', undefined],
    ['cline', 'sdk-tool_result-run_commands', undefined],
    ['qwen', 'PostToolUseFailure-run_shell_command', undefined],
    ['copilot', 'postToolUse-bash', 'postToolUse'],
    ['claude-code', 'Stop', undefined],
    ['gemini', 'AfterAgent', undefined],
  ] as const)('%s %s: a shell tool or the end of a turn names none', (agent, name, event) => {
    expect(touchedOf(agent, fixture(agent, name), event)).toBeUndefined();
  });

  it('Claude Code: Edit, MultiEdit and NotebookEdit too; not a tool that writes elsewhere or reads; a field of another shape reads as absent', () => {
    const claude = (tool_name: string, tool_input: unknown) =>
      touchedOf('claude-code', {
        session_id: 's',
        cwd: '/ws',
        hook_event_name: 'PostToolUse',
        tool_name,
        tool_input,
      });
    expect(claude('Edit', { file_path: '/ws/a' })).toEqual(['/ws/a']);
    expect(claude('MultiEdit', { file_path: 'rel/b' })).toEqual(['rel/b']);
    expect(claude('NotebookEdit', { notebook_path: '/ws/n.ipynb' })).toEqual(['/ws/n.ipynb']);
    expect(claude('Read', { file_path: '/ws/a' })).toBeUndefined();
    expect(claude('Bash', { command: 'echo > a' })).toBeUndefined();
    expect(claude('mcp__fs__write', { file_path: '/ws/a' })).toBeUndefined();
    // The event is still checkpointed, as the whole step.
    expect(claude('Write', { file_path: 42 })).toBeUndefined();
    expect(claude('Write', 'not an object')).toBeUndefined();
    expect(claude('Write', { file_path: '' })).toBeUndefined();
  });

  it.each([5, '', null, ['/ws/a'], { path: '/ws/a' }])(
    'Cursor afterFileEdit: a file_path of another shape (%j) reads as absent, the event is still checkpointed',
    (file_path) => {
      const event = { hook_event_name: 'afterFileEdit', conversation_id: 'c', workspace_roots: ['/ws'] };
      expect(touchedOf('cursor', { ...event, file_path })).toBeUndefined();
      expect(touchedOf('cursor', { ...event, file_path: 'a.py' })).toEqual(['a.py']);
    },
  );

  it.each([5, '', null, ['/ws/a']])(
    'Windsurf: a tool_info.file_path or tool_info.cwd of another shape (%j) reads as absent, the event is still checkpointed',
    (odd) => {
      const windsurf = (agent_action_name: string, tool_info: unknown) => {
        const m = ADAPTERS.windsurf.map({ agent_action_name, trajectory_id: 't', tool_info }, {});
        if (!('mapped' in m)) throw new Error(m.message);
        return m.mapped;
      };
      expect(windsurf('post_write_code', { file_path: odd }).touched).toBeUndefined();
      expect(windsurf('post_write_code', { file_path: '/ws/a', cwd: odd })).toMatchObject({
        touched: ['/ws/a'],
        cwd: undefined,
      });
      expect(windsurf('post_run_command', { cwd: odd, command_line: 'ls' }).cwd).toBeUndefined();
      expect(windsurf('post_write_code', odd).touched).toBeUndefined();
      // Only post_run_command's tool_info.cwd names a directory (where the command ran).
      expect(windsurf('post_run_command', { cwd: '/ws/sub' }).cwd).toBe('/ws/sub');
      expect(windsurf('post_write_code', { file_path: '/ws/a', cwd: '/elsewhere' }).cwd).toBeUndefined();
      expect(windsurf('pre_user_prompt', { user_prompt: 'hi', cwd: '/elsewhere' }).cwd).toBeUndefined();
      expect(windsurf('pre_user_prompt', { user_prompt: 'hi', cwd: odd })).toMatchObject({
        kind: 'before-prompt',
        promptText: 'hi',
      });
    },
  );

  it('Copilot: toolArgs as an object or as its JSON text; broken text names nothing', () => {
    const copilot = (toolName: string, toolArgs: unknown) =>
      touchedOf('copilot', { sessionId: 's', cwd: '/ws', toolName, toolArgs }, 'postToolUse');
    expect(copilot('edit', { path: '/ws/a' })).toEqual(['/ws/a']);
    expect(copilot('create', '{"path":"/ws/b"}')).toEqual(['/ws/b']);
    expect(copilot('create', '{"path":')).toBeUndefined();
    expect(copilot('create', '{"path":7}')).toBeUndefined();
  });

  it('Copilot: toolArgs text is parsed only for a file-writing tool, and not when it would cost seconds', () => {
    const copilot = (toolName: string, toolArgs: unknown) =>
      touchedOf('copilot', { sessionId: 's', cwd: '/ws', toolName, toolArgs }, 'postToolUse');
    const parse = vi.spyOn(JSON, 'parse');
    try {
      // A shell's arguments name no file: never read (they may be megabytes).
      expect(copilot('bash', '{"command":"ls","path":"/ws/x"}')).toBeUndefined();
      // Nested millions deep (JSON.parse: about a microsecond a level, every timer stopped).
      const deep = `{"path":"/ws/c","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
      expect(copilot('edit', deep)).toBeUndefined();
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it("Codex's apply_patch: every file its envelope adds, updates, deletes or moves to", () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: new.txt',
      '+x',
      '*** Update File: src/old name.ts\r',
      '*** Move to: src/new name.ts',
      '@@',
      '-a',
      '+*** Delete File: not a header (an added line)',
      '*** Delete File: gone.txt',
      '*** End Patch',
    ].join('\n');
    expect(patchPaths(patch)).toEqual(['new.txt', 'src/old name.ts', 'src/new name.ts', 'gone.txt']);
    const codex = (tool_name: string, command: unknown) =>
      touchedOf('codex', {
        session_id: 's',
        cwd: '/ws',
        hook_event_name: 'PostToolUse',
        tool_name,
        tool_input: { command },
      });
    expect(codex('functions.apply_patch', patch)).toHaveLength(4);
    expect(codex('apply_patch', '*** Begin Patch\n*** End Patch\n')).toBeUndefined();
    expect(codex('Bash', patch)).toBeUndefined();
    // Past 100 files its step is the session's whole: the list is not cut to fit.
    const big = Array.from({ length: 1500 }, (_, i) => `*** Add File: f${i}`).join('\n');
    expect(patchPaths(big)).toHaveLength(1000);
  });
});
