/**
 * The checkpoints of a store are one line of states, read in the order of their refs' names
 * (`refs/checkpoints/<UTC time>-<random>`). Hooks run in processes of their own: a clock stepped
 * back between two of them (NTP, a virtual machine resumed, WSL after sleep) must not put a newer
 * checkpoint before older ones in that line, or a session's restore reads other sessions' steps as
 * its own (and its own as theirs).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, okIn, runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

/** A preload that sets this process's clock back by CLOCK_BACK_MS. */
function clockShim(): string {
  const file = join(tempDir('agentgate-clock-'), 'clock.cjs');
  writeFileSync(
    file,
    `const back = Number(process.env.CLOCK_BACK_MS || 0);
const Real = Date;
const now = () => Real.now() - back;
class Shifted extends Real { constructor(...a) { if (a.length === 0) super(now()); else super(...a); } static now() { return now(); } }
globalThis.Date = Shifted;
`,
  );
  return file;
}

describe('checkpoints when the clock steps back', () => {
  it('a hook whose clock is an hour behind still records after the newest checkpoint', () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const home = tempDir('agentgate-clock-home-');
    const shim = clockShim();
    const hook = (event: object, back = 0): void => {
      const env = {
        AGENTGATE_HOME: home,
        ...(back === 0 ? {} : { NODE_OPTIONS: `--require ${shim}`, CLOCK_BACK_MS: String(back) }),
      };
      const input = JSON.stringify({ cwd: ws, ...event });
      expect(runCli(['hook', 'claude-code'], { input, env }).status).toBe(0);
    };
    const write = (name: string, text: string) => writeFileSync(join(ws, name), text);
    const tool = (session: string, file: string) => ({
      hook_event_name: 'PostToolUse',
      session_id: session,
      tool_name: 'Write',
      tool_input: { file_path: join(ws, file) },
    });

    hook({ hook_event_name: 'SessionStart', session_id: 'A' });
    hook({ hook_event_name: 'UserPromptSubmit', session_id: 'A', prompt: 'one' });
    write('a.txt', 'A1\n');
    hook(tool('A', 'a.txt'));
    // The clock goes back an hour: session B's events.
    const HOUR = 3_600_000;
    hook({ hook_event_name: 'SessionStart', session_id: 'B' }, HOUR);
    hook({ hook_event_name: 'UserPromptSubmit', session_id: 'B', prompt: 'two' }, HOUR);
    write('b.txt', 'B1\n');
    hook(tool('B', 'b.txt'), HOUR);
    // And forward again: A goes on.
    write('a.txt', 'A2\n');
    hook(tool('A', 'a.txt'));

    const list = okIn<{ session?: string; event?: string }[]>(ws, home, ['checkpoint', 'list']);
    expect(list.map((e) => `${e.session} ${e.event}`)).toEqual([
      'A PostToolUse',
      'B PostToolUse',
      'B UserPromptSubmit',
      'B SessionStart',
      'A PostToolUse',
      'A UserPromptSubmit',
      'A SessionStart',
    ]);
    // A's file is A's alone: no conflict; B's file is not A's to touch.
    const res = cliIn(ws, home, ['checkpoint', 'restore', '--prompt', '1', '--session', 'A']);
    expect(res.status, res.stdout).toBe(0);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('B1\n');
  });
});
