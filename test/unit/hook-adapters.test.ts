/** The small pure parts of the agent hooks: lenient JSON, Windows paths, our command and how it is recognised. */
import { describe, expect, it } from 'vitest';
import { hookCommand, isOurCommand, shellWord } from '../../src/hooks/install/command.js';
import { escapeControlCharsInStrings } from '../../src/hooks/lenient-json.js';
import { nativePath } from '../../src/hooks/workspace.js';
import { ADAPTERS } from '../../src/hooks/index.js';

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
