/**
 * `hook <agent>` through the built CLI: exit 0 whatever happens, and stdout exactly what the agent
 * must read to carry on (Gemini `{}`, Cline `{"cancel": false}`, Cursor `{"continue":true}` for a
 * prompt), or nothing, even for bad input and a bad option.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HOOK_AGENTS, type HookAgent } from '../../types/hook-agents.js';
import { agentEvent, eventOfFixture } from '../helpers/agent-hooks.js';
import { treeState } from '../helpers/checkpoints.js';
import { CLI, runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const PROMPT: Readonly<Record<HookAgent, [string, string]>> = {
  'claude-code': ['', ''],
  codex: ['UserPromptSubmit', ''],
  gemini: ['BeforeAgent', '{}\n'],
  cursor: ['beforeSubmitPrompt', '{"continue":true}\n'],
  copilot: ['userPromptSubmitted', ''],
  qwen: ['UserPromptSubmit', ''],
  cline: ['UserPromptSubmit', '{"cancel": false}\n'],
  windsurf: ['pre_user_prompt', ''],
};

/** What the agent reads when the event is not one we could use: the prompt's answer (it may be one). */
const FALLBACK = Object.fromEntries(HOOK_AGENTS.map((a) => [a, PROMPT[a][1]])) as Record<HookAgent, string>;

const AGENTS = HOOK_AGENTS.filter((a) => a !== 'claude-code');

function hook(agent: HookAgent, input: string, home: string, cwd: string, args: string[] = []) {
  return runCli(['hook', agent, ...args], { input, cwd, env: { AGENTGATE_HOME: home } });
}

describe.each(AGENTS)('hook %s (CLI)', (agent) => {
  it('a prompt: exit 0, the carry-on answer on stdout, prompt 1 recorded; bad JSON and a bad option: exit 0, the same answer', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-cli-');
    const [name, answer] = PROMPT[agent];
    const args = agent === 'copilot' ? ['--event', eventOfFixture(name)] : [];
    const ok = hook(agent, agentEvent(agent, name, ws), home, ws, args);
    expect([ok.status, ok.stdout, ok.stderr]).toEqual([0, answer, '']);
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
    expect(list.json()).toEqual([expect.objectContaining({ prompt: 1 })]);
    const bad = hook(agent, '{"oops', home, ws, args);
    expect([bad.status, bad.stdout]).toEqual([0, FALLBACK[agent]]);
    expect(bad.stderr).toMatch(/^agentgate-snapshot hook: invalid: stdin is not a JSON event/);
    const badOption = hook(agent, agentEvent(agent, name, ws), home, ws, ['--bogus']);
    expect([badOption.status, badOption.stdout]).toEqual([0, FALLBACK[agent]]);
    expect(badOption.stderr).toMatch(/failed: hook did not run: USAGE/);
  });
});

describe('hook CLI across agents', () => {
  it('checkpoint restore --prompt N --session ID puts back the files that agent session changed after that prompt', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-agents-cli-');
    const env = { AGENTGATE_HOME: home };
    const before1 = treeState(ws);
    // Each tool event names the file its tool wrote.
    const naming = (agent: HookAgent, name: string, file: string) =>
      agentEvent(agent, name, ws).replaceAll('factorial.py', file);
    expect(hook('gemini', agentEvent('gemini', 'BeforeAgent', ws), home, ws).status).toBe(0);
    writeFiles(ws, { 'a.txt': 'two\n' });
    expect(hook('gemini', naming('gemini', 'AfterTool-write_file', 'a.txt'), home, ws).status).toBe(0);
    expect(hook('cline', agentEvent('cline', 'UserPromptSubmit', ws), home, ws).status).toBe(0);
    writeFiles(ws, { 'b.txt': 'new\n' });
    expect(hook('cline', naming('cline', 'PostToolUse-write_to_file', 'b.txt'), home, ws).status).toBe(0);
    const restore = runCli(
      [
        'checkpoint',
        'restore',
        '--prompt',
        '1',
        '--session',
        'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        '--json',
        '-C',
        ws,
      ],
      { env },
    );
    expect(restore.status, restore.stdout).toBe(0);
    // Gemini's a.txt is back; Cline's b.txt, another session's work, stays.
    expect(treeState(ws)).toEqual({
      ...before1,
      'b.txt': `file - ${Buffer.from('new\n').toString('base64')}`,
    });
  });

  it('Copilot: --event names a camelCase event; hook copilot --help documents it', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-cli-');
    const res = hook('copilot', agentEvent('copilot', 'sessionStart', ws), home, ws, [
      '--event',
      'sessionStart',
    ]);
    expect([res.status, res.stdout]).toEqual([0, '']);
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
    expect(list.json()).toEqual([expect.objectContaining({ event: 'sessionStart' })]);
    expect(runCli(['hook', 'copilot', '--help']).stdout).toMatch(/--event NAME/);
  });

  it('an agent that closed its end of stdout: the answer is dropped, the hook exits 0 with nothing on stderr and the checkpoint is kept', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-cli-');
    const child = spawn(process.execPath, [CLI, 'hook', 'gemini'], {
      cwd: ws,
      env: { ...process.env, AGENTGATE_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Closed before the hook has even loaded: its answer ({}) meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end(agentEvent('gemini', 'BeforeAgent', ws));
    expect([await closed, stderr]).toEqual([0, '']);
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
    expect(list.json()).toEqual([expect.objectContaining({ prompt: 1 })]);
  });
});
