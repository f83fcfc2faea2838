/**
 * The checkpoint commands' text for people: every string a user or an agent controls (a session
 * id, a file name, an option's value) is shown escaped, as `checkpoint list` shows it.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** No raw control character but the line breaks between lines. */
// eslint-disable-next-line no-control-regex -- control characters are what we look for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('checkpoint text output', () => {
  it('restore --prompt --session --dry-run shows a session id holding a newline and ESC escaped', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cptext-home-');
    const env = { AGENTGATE_HOME: home };
    const session = 'S\nX\u001b[2J';
    const event = JSON.stringify({
      session_id: session,
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'change a',
    });
    expect(runCli(['hook', 'claude-code'], { input: event, env }).status).toBe(0);
    writeFiles(ws, { 'a.txt': 'two\n' });
    const stop = JSON.stringify({ session_id: session, cwd: ws, hook_event_name: 'Stop' });
    expect(runCli(['hook', 'claude-code'], { input: stop, env }).status).toBe(0);

    const res = runCli(
      ['checkpoint', 'restore', '--prompt', '1', '--session', session, '--dry-run', '-C', ws],
      { env },
    );
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('session S\\nX\\x1b[2J before prompt 1');
    expect(res.stdout).not.toMatch(RAW_CONTROL);
    expect(res.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('diff-full names a file whose name holds ESC escaped', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const env = { AGENTGATE_HOME: tempDir('agentgate-cptext-home-') };
    expect(runCli(['checkpoint', 'track', '-C', ws], { env }).status).toBe(0);
    writeFiles(ws, { 'red\u001b[31m.txt': 'new\n' });
    const res = runCli(['checkpoint', 'diff-full', 'latest', '-C', ws], { env });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('=== added red\\x1b[31m.txt (+1 -0)');
    expect(res.stdout).not.toMatch(RAW_CONTROL);
  });
});
