/**
 * Agents that name their workspace root (Cursor, Cline) or run their hooks in it (Windsurf): an
 * event that happened in a repository nested in that root (its cwd, or with none the file its tool
 * wrote) is kept in the nested repository's own store, as it is for the agents that name only a cwd.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { runEventHook } from '../../src/hooks/index.js';
import { agentEvent } from '../helpers/agent-hooks.js';
import { CLI, runCli } from '../helpers/cli.js';
import { commitAll, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

type Event = Record<string, unknown> & {
  tool_info: Record<string, unknown>;
  postToolUse: { parameters: Record<string, unknown> };
};

/** Each event pointed into the nested repository `inner` (named `inner` below the root). */
const CASES: Array<[HookAgent, string, (e: Event, inner: string) => void]> = [
  ['cursor', 'afterShellExecution', (e, inner) => (e.cwd = inner)],
  ['cursor', 'afterFileEdit', (e, inner) => (e.file_path = join(inner, 'factorial.py'))],
  ['windsurf', 'post_run_command-subdir', (e, inner) => (e.tool_info.cwd = inner)],
  ['windsurf', 'post_write_code', (e, inner) => (e.tool_info.file_path = join(inner, 'factorial.py'))],
  ['cline', 'PostToolUse-write_to_file', (e) => (e.postToolUse.parameters.path = 'inner/factorial.py')],
];

describe.each(['a repository', 'a plain directory'])('a workspace root that is %s', (kind) => {
  it.each(CASES)(
    '%s %s in a nested repository: kept in that repository`s store',
    async (agent, name, aim) => {
      const root = kind === 'a repository' ? repoWithCommit() : tempDir('agentgate-nested-root-');
      const inner = join(root, 'inner');
      writeFiles(inner, { 'factorial.py': 'old\n' });
      initRepo(inner);
      commitAll(inner, 'inner');
      const home = tempDir('agentgate-nested-home-');
      const event = JSON.parse(agentEvent(agent, name, root)) as Event;
      aim(event, inner);
      writeFiles(inner, { 'factorial.py': 'new\n' });
      const o = await runEventHook(agent, JSON.stringify(event), { home, cwd: root });
      expect(o.status, o.message).toBe('recorded');
      expect(o.message).toContain(` in ${inner}`);
      const [entry, ...rest] = await (await Checkpoints.open(inner, { home })).list();
      expect(rest).toEqual([]);
      expect(entry?.event).toBe(name.split('-')[0]);
      // A plain subdirectory of the root is still the root's.
      const plain = JSON.parse(agentEvent(agent, name, root)) as Event;
      aim(plain, join(root, 'sub'));
      if (agent === 'cline') plain.postToolUse.parameters.path = 'sub/factorial.py';
      writeFiles(root, { 'sub/factorial.py': 'x\n' });
      const p = await runEventHook(agent, JSON.stringify(plain), { home, cwd: root });
      expect(p.message).toMatch(new RegExp(` in ${root}$`));
    },
  );
});

describe('an event whose cwd is the root and whose file lies in a nested repository', () => {
  it.each<[HookAgent, string, (e: Record<string, unknown>, root: string, file: string) => void]>([
    ['cursor', 'afterFileEdit', (e, root, file) => Object.assign(e, { cwd: root, file_path: file })],
    ['claude-code', 'PostToolUse', (e, _root, file) => Object.assign(e, { tool_input: { file_path: file } })],
  ])('%s %s: the file decides (that repository`s store)', async (agent, name, aim) => {
    const root = repoWithCommit();
    const inner = join(root, 'inner');
    writeFiles(inner, { 'factorial.py': 'old\n' });
    initRepo(inner);
    commitAll(inner, 'inner');
    const home = tempDir('agentgate-nested-home-');
    const event = JSON.parse(agentEvent(agent, name, root)) as Record<string, unknown>;
    aim(event, root, join(inner, 'factorial.py'));
    writeFiles(inner, { 'factorial.py': 'new\n' });
    const o = await runEventHook(agent, JSON.stringify(event), { home, cwd: root });
    expect(o.status, o.message).toBe('recorded');
    expect(o.message).toMatch(new RegExp(`^latest checkpoint .* in ${inner}$`));
    expect(await (await Checkpoints.open(inner, { home })).list()).toHaveLength(1);
  });
});

describe('a project below a home directory that is itself a repository (dotfiles: `git init ~`)', () => {
  it('is checkpointed as a plain directory (the home is no workspace), and its prompts can be restored', () => {
    const homeDir = initRepo(tempDir('agentgate-home-repo-'));
    const project = join(homeDir, 'proj');
    writeFiles(project, { 'kept.txt': 'kept\n' });
    const env = { HOME: homeDir, AGENTGATE_HOME: tempDir('agentgate-home-repo-store-') };
    const event = (name: string) =>
      JSON.stringify({ session_id: 'S1', cwd: project, hook_event_name: name, prompt: 'p' });
    expect(runCli(['hook', 'claude-code'], { env, input: event('UserPromptSubmit') }).status).toBe(0);
    writeFiles(project, { 'made.txt': 'by the agent\n' });
    expect(runCli(['hook', 'claude-code'], { env, input: event('Stop') }).status).toBe(0);
    const list = runCli(['checkpoint', 'list', '--json', '-C', project], { env }).json() as Array<{
      event: string;
    }>;
    expect(list.map((c) => c.event)).toEqual(['Stop', 'UserPromptSubmit']);
    const restore = runCli(
      ['checkpoint', 'restore', '--prompt', '1', '--session', 'S1', '--json', '-C', project],
      { env },
    );
    expect(restore.json()).toMatchObject({ deleted: [join(project, 'made.txt')] });
    // The home directory itself stays refused.
    const home = runCli(['checkpoint', 'track', '--json', '-C', homeDir], { env });
    expect([home.status, (home.json() as { error: { code: string } }).error.code]).toEqual([
      1,
      'UNSAFE_WORKSPACE',
    ]);
  });
});

describe('a FIFO named .git in a subdirectory (an agent can make one; git takes it for no repository)', () => {
  /** The CLI's hook, ended after 20 s if it has not finished by then (status null). */
  function hookWithin(home: string, args: string[], input: string) {
    return spawnSync(process.execPath, [CLI, ...args], {
      input,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, NO_COLOR: '1', AGENTGATE_HOME: home },
    });
  }

  it('is never read (it would wait for a writer with every timer stopped): the hooks record, the subdirectory is the root`s', () => {
    const root = repoWithCommit();
    writeFiles(root, { 'sub/factorial.py': 'new\n' });
    execFileSync('mkfifo', [join(root, 'sub', '.git')]);
    const home = tempDir('agentgate-nested-home-');
    const cursor = JSON.parse(agentEvent('cursor', 'afterFileEdit', root)) as Record<string, unknown>;
    cursor.file_path = join(root, 'sub', 'factorial.py');
    const claude = { session_id: 's', cwd: root, hook_event_name: 'Stop' };
    for (const [agent, event] of [
      ['cursor', cursor],
      ['claude-code', claude],
    ] as const)
      expect(hookWithin(home, ['hook', agent], JSON.stringify(event)).status).toBe(0);
    const log = readFileSync(join(home, 'logs', 'hooks.log'), 'utf8');
    expect(log.match(/ recorded: /g)).toHaveLength(2);
    expect(log).not.toContain(join(root, 'sub'));
  });
});
