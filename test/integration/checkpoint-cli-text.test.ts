/**
 * The checkpoint commands' text for people: every string a user or an agent controls (a session
 * id, a file name, an option's value) is shown escaped, as `checkpoint list` shows it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoints, sessionHooks } from '../helpers/checkpoints.js';
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

  it('RESTORE_CONFLICT names the files the restore did restore and delete, as its success text does', async () => {
    const ws = repoWithCommit({ 'mine.txt': 'm0\n', 'shared.txt': 's0\n' });
    const home = tempDir('agentgate-cptext-home-');
    const cp = await openCheckpoints(ws, { home });
    const [a, b] = [sessionHooks(cp, 'A'), sessionHooks(cp, 'B')];
    await a.start();
    await a.prompt();
    writeFiles(ws, { 'mine.txt': 'm1\n', 'new.txt': 'n\n', 'shared.txt': 's-a\n' });
    await a.tool();
    writeFiles(ws, { 'shared.txt': 's-b\n' });
    await b.tool();

    const res = runCli(['checkpoint', 'restore', '--prompt', '1', '--session', 'A', '-C', ws], {
      env: { AGENTGATE_HOME: home },
    });
    expect(res.status).toBe(3);
    expect(res.stderr).toContain('RESTORE_CONFLICT');
    for (const file of ['mine.txt', 'new.txt', 'shared.txt']) expect(res.stderr).toContain(join(ws, file));
    expect(res.stdout).toBe('');
  });
});
