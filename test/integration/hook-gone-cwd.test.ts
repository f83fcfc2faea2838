/**
 * An agent hook started in a directory that was deleted (the agent's own working directory removed
 * under it, or removed and made again: `rm -rf app && git clone ... app`): an event that names its
 * workspace by an absolute path is still checkpointed there; one that names none (Windsurf's, which
 * count on the hook's directory) is ignored with a log line saying why. Exit 0 and the agent's
 * answer either way.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../types/checkpoint.js';
import { CLI, runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

/** `hook <args>` run by a shell standing in a directory deleted before the hook starts. */
function hookInGoneDir(args: string[], event: string, env: Record<string, string> = {}) {
  const gone = join(tempDir(), 'gone');
  mkdirSync(gone);
  const quoted = [process.execPath, CLI, 'hook', ...args].map((w) => `'${w.replaceAll("'", `'\\''`)}'`);
  const res = spawnSync('sh', ['-c', `cd "$1" && rmdir "$1" && exec ${quoted.join(' ')}`, 'sh', gone], {
    input: event,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

function entries(ws: string, home: string): CheckpointEntry[] {
  const list = runCli(['checkpoint', 'list', '--json', '-C', ws, '--home', home]);
  return list.status === 0 ? (list.json() as CheckpointEntry[]) : [];
}

describe('an agent hook whose working directory was deleted', () => {
  it('checkpoints an event that names its workspace (cwd, workspace_roots, workspaceRoots)', () => {
    const ws = repoWithCommit();
    const home = tempDir();
    const claude = hookInGoneDir(
      ['claude-code', '--home', home],
      JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'go' }),
    );
    expect([claude.status, claude.stdout]).toEqual([0, '']);
    const cursor = hookInGoneDir(
      ['cursor', '--home', home],
      JSON.stringify({
        hook_event_name: 'beforeSubmitPrompt',
        conversation_id: 'c1',
        workspace_roots: [ws],
        prompt: 'p',
      }),
    );
    expect([cursor.status, cursor.stdout]).toEqual([0, '{"continue":true}\n']);
    const cline = hookInGoneDir(
      ['cline', '--home', home],
      JSON.stringify({ hookName: 'TaskStart', taskId: 't1', workspaceRoots: [ws] }),
    );
    expect([cline.status, cline.stdout]).toEqual([0, '{"cancel": false}\n']);
    const got = entries(ws, home).map((e) => [e.session, e.event, e.prompt ?? null]);
    expect(got).toEqual(
      expect.arrayContaining([
        ['s1', 'UserPromptSubmit', 1],
        ['c1', 'beforeSubmitPrompt', 1],
        ['t1', 'TaskStart', null],
      ]),
    );
  });

  it('ignores an event that names no workspace (Windsurf), saying the hook`s directory is gone', () => {
    const home = tempDir();
    const res = hookInGoneDir(
      ['windsurf', '--home', home],
      JSON.stringify({ agent_action_name: 'post_cascade_response', trajectory_id: 'w1' }),
    );
    expect([res.status, res.stdout]).toEqual([0, '']);
    expect(readFileSync(join(home, 'logs/hooks.log'), 'utf8')).toMatch(
      /windsurf post_cascade_response session=w1 ignored: .*no longer exists/,
    );
  });

  it('a relative --home names nothing there: the hook does not run, exits 0 and writes nothing under /', () => {
    const ws = repoWithCommit();
    const res = hookInGoneDir(
      ['claude-code', '--home', 'rel-home'],
      JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'Stop' }),
    );
    expect([res.status, res.stdout]).toEqual([0, '']);
    expect(res.stderr).toMatch(/WORKSPACE_NOT_FOUND/);
  });
});
