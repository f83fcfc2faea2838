/**
 * One prompt delivered by two agents' hooks: the Copilot CLI also runs the hooks of Claude Code's
 * `.claude/settings.json`, with the same session id, so `hook install claude-code` and `hook
 * install copilot` in one project both see each prompt. It is one prompt: numbered and
 * checkpointed once, so that `restore --prompt N` stays the state just before the N-th prompt.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../types/checkpoint.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { installHooks } from '../../src/hooks/install/install.js';
import { runEventHook } from '../../src/hooks/index.js';
import { runCli } from '../helpers/cli.js';
import { RUNNER } from '../helpers/hook-install.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const SESSION = '5f2c9a10-3b4d-4e5f-8a6b-7c8d9e0f1a2b';

/** The prompt as each dialect carries it: Claude Code's (PascalCase) and Copilot's camelCase. */
function payloads(ws: string, prompt: string): { claude: string; copilot: string } {
  return {
    claude: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: SESSION, cwd: ws, prompt }),
    copilot: JSON.stringify({ sessionId: SESSION, timestamp: 1795752005000, cwd: ws, prompt }),
  };
}

function prompts(entries: readonly CheckpointEntry[]): number[] {
  return entries.flatMap((e) => (e.prompt === undefined ? [] : [e.prompt])).sort();
}

describe('a prompt delivered by Claude Code`s hook and Copilot`s', () => {
  it('through the commands the two installs write: one prompt a turn, restore --prompt N before the N-th', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-twice-home-');
    const opts = {
      scope: 'project' as const,
      workspace: ws,
      homeDir: tempDir(),
      runner: { ...RUNNER, home },
    };
    await installHooks('claude-code', opts);
    await installHooks('copilot', opts);
    const claude = JSON.parse(readFileSync(join(ws, '.claude/settings.json'), 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    const copilot = JSON.parse(readFileSync(join(ws, '.github/hooks/agentgate.json'), 'utf8')) as {
      hooks: Record<string, Array<{ bash: string }>>;
    };
    const commands = {
      claude: claude.hooks.UserPromptSubmit?.[0]?.hooks[0]?.command as string,
      copilot: copilot.hooks.userPromptSubmitted?.[0]?.bash as string,
    };
    const deliver = (prompt: string, order: Array<'claude' | 'copilot'>) => {
      const text = payloads(ws, prompt);
      for (const who of order)
        expect(spawnSync('sh', ['-c', commands[who]], { cwd: ws, input: text[who] }).status).toBe(0);
    };
    deliver('first', ['claude', 'copilot']);
    writeFiles(ws, { 'a.txt': 'two\n' });
    // The same text again, the next turn, its hooks in the other order: the second prompt.
    deliver('first', ['copilot', 'claude']);
    writeFiles(ws, { 'a.txt': 'three\n' });
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
    expect(prompts(list.json() as CheckpointEntry[])).toEqual([1, 2]);
    const cp = await Checkpoints.open(ws, { home });
    expect((await cp.beforePrompt(2, SESSION)).hash).not.toBe((await cp.beforePrompt(1, SESSION)).hash);
    const log = readFileSync(join(home, 'logs/hooks.log'), 'utf8');
    expect(log.match(/ignored: prompt \d again/g)).toHaveLength(2);
  });

  it('at the same time: one claim, one checkpoint; the later delivery says which prompt it was', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-twice-home-');
    const text = payloads(ws, 'fix the tests');
    const outcomes = await Promise.all([
      runEventHook('claude-code', text.claude, { home }),
      runEventHook('copilot', text.copilot, { home, event: 'userPromptSubmitted' }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['ignored', 'recorded']);
    expect(outcomes.map((o) => o.prompt)).toEqual([1, 1]);
    const cp = await Checkpoints.open(ws, { home });
    expect(prompts(await cp.list())).toEqual([1]);
  });

  it('one agent`s hook delivering the same text twice is two prompts; another text is never the same prompt', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-twice-home-');
    const fire = (agent: 'claude-code' | 'copilot', prompt: string) =>
      runEventHook(agent, payloads(ws, prompt)[agent === 'copilot' ? 'copilot' : 'claude'], {
        home,
        event: 'userPromptSubmitted',
      });
    await fire('claude-code', 'continue');
    await fire('claude-code', 'continue');
    await fire('copilot', 'something else');
    const cp = await Checkpoints.open(ws, { home });
    expect(prompts(await cp.list())).toEqual([1, 2, 3]);
  });
});
