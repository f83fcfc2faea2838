/**
 * Every agent's adapter on its real event shapes (fixtures/hooks/<agent>): a baseline, prompts
 * numbered per session, edits by the agent's edit tool and by its shell tool, the end of a turn,
 * and each prompt of the session restored by prompt and session.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { gitCallCount } from '../../src/git/runner.js';
import { runEventHook, type EventHookOutcome } from '../../src/hooks/index.js';
import { agentEvent, eventOfFixture } from '../helpers/agent-hooks.js';
import { treeState } from '../helpers/checkpoints.js';
import { initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

interface Script {
  agent: HookAgent;
  session: string;
  start?: string;
  prompt: string;
  edit: string;
  shell: string;
  end: string;
  answer: string;
}

const SCRIPTS: Script[] = [
  {
    agent: 'codex',
    session: '019a5c2e-7b1d-7e40-9a3c-5f0e1d2c3b4a',
    start: 'SessionStart',
    prompt: 'UserPromptSubmit',
    edit: 'PostToolUse-apply_patch',
    shell: 'PostToolUse-shell',
    end: 'Stop',
    answer: '',
  },
  {
    agent: 'gemini',
    session: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    start: 'SessionStart',
    prompt: 'BeforeAgent',
    edit: 'AfterTool-write_file',
    shell: 'AfterTool-run_shell_command',
    end: 'AfterAgent',
    answer: '{}',
  },
  {
    agent: 'cursor',
    session: 'c0ffee00-1111-4222-8333-444455556666',
    start: 'sessionStart',
    prompt: 'beforeSubmitPrompt',
    edit: 'afterFileEdit',
    shell: 'afterShellExecution',
    end: 'stop',
    answer: '{}',
  },
  {
    agent: 'copilot',
    session: '5f2c9a10-3b4d-4e5f-8a6b-7c8d9e0f1a2b',
    start: 'sessionStart',
    prompt: 'userPromptSubmitted',
    edit: 'postToolUse-create',
    shell: 'postToolUse-bash',
    end: 'agentStop',
    answer: '',
  },
  {
    agent: 'qwen',
    session: 'qwen-7d1e2f3a-4b5c',
    start: 'SessionStart',
    prompt: 'UserPromptSubmit',
    edit: 'PostToolUse-write_file',
    shell: 'PostToolUseFailure-run_shell_command',
    end: 'Stop',
    answer: '',
  },
  {
    agent: 'cline',
    session: '1795752000000',
    start: 'TaskStart',
    prompt: 'UserPromptSubmit',
    edit: 'PostToolUse-write_to_file',
    shell: 'PostToolUse-execute_command',
    end: 'TaskComplete',
    answer: '{"cancel": false}',
  },
  {
    // The Cline CLI and other SDK hosts (cline/cline sdk/packages/core/src/hooks/hook-file-hooks.ts):
    // the same hook files, but the payload's hookName is the SDK's event name.
    agent: 'cline',
    session: 'conv_01KB3C7Q2M4N5P6R7S8T9V0W1X',
    start: 'sdk-agent_start',
    prompt: 'sdk-prompt_submit',
    edit: 'sdk-tool_result-editor',
    shell: 'sdk-tool_result-run_commands',
    end: 'sdk-agent_end',
    answer: '{"cancel": false}',
  },
  {
    agent: 'windsurf',
    session: 'traj-9c8b7a6f',
    prompt: 'pre_user_prompt',
    edit: 'post_write_code',
    shell: 'post_run_command',
    end: 'post_cascade_response',
    answer: '',
  },
];

/** What stdout must carry: Cursor lets a prompt through with `continue`. */
function answerOf(s: Script, name: string): string {
  return s.agent === 'cursor' && name === 'beforeSubmitPrompt' ? '{"continue":true}' : s.answer;
}

function fire(s: Script, name: string, ws: string, home: string): Promise<EventHookOutcome> {
  return runEventHook(s.agent, agentEvent(s.agent, name, ws), {
    home,
    cwd: ws,
    ...(s.agent === 'copilot' ? { event: eventOfFixture(name) } : {}),
  });
}

describe.each(SCRIPTS)('hook $agent ($start)', (s) => {
  it('keeps a baseline, numbered prompts, the edit tool, the shell tool and the turn end; restores each prompt by prompt and session', async () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n', 'gone.txt': 'here\n' });
    const home = tempDir('agentgate-agents-home-');
    const sh = (script: string) => execSync(script, { cwd: ws, stdio: 'ignore' });
    const outcomes: EventHookOutcome[] = [];
    const run = async (name: string) => {
      const o = await fire(s, name, ws, home);
      expect(o.status, `${name}: ${o.message}`).toBe('recorded');
      expect(o.answer).toBe(answerOf(s, name));
      outcomes.push(o);
      return o;
    };
    if (s.start !== undefined) await run(s.start);
    const before1 = treeState(ws);
    expect((await run(s.prompt)).prompt).toBe(1);
    writeFiles(ws, { 'factorial.py': 'def factorial(n):\n    return 1\n' });
    await run(s.edit);
    sh(`sed -i 's/return 1/return n/' factorial.py && mkdir -p src && echo x > src/x.txt`);
    await run(s.shell);
    const before2 = treeState(ws);
    expect((await run(s.prompt)).prompt).toBe(2);
    // A change no tool event reports (a failed tool, a person): the end of the turn keeps it.
    sh('rm gone.txt && echo more >> README.md');
    await run(s.end);
    const end = treeState(ws);

    const cp = await Checkpoints.open(ws, { home });
    const mine = (await cp.list()).filter((e) => e.session === s.session).reverse();
    expect(mine.map((e) => e.prompt).filter((p) => p !== undefined)).toEqual([1, 2]);
    expect(mine.length).toBe(outcomes.length);
    expect((await cp.patch((await cp.markers()).latest?.hash as string)).files).toEqual([]);
    await cp.restore((await cp.beforePrompt(1, s.session)).hash);
    expect(treeState(ws)).toEqual(before1);
    await cp.restore((await cp.beforePrompt(2, s.session)).hash);
    expect(treeState(ws)).toEqual(before2);
    await cp.restore(mine[mine.length - 1]?.hash as string);
    expect(treeState(ws)).toEqual(end);
    const log = readFileSync(join(home, 'logs/hooks.log'), 'utf8');
    expect(log.trim().split('\n')).toHaveLength(outcomes.length);
    expect(log).toMatch(new RegExp(`^\\S+ ${s.agent} \\S+ session=${s.session} recorded: `, 'm'));
  });

  it('bad input, an event it does not checkpoint and a workspace that is /, the home directory, holds it or is gone: no checkpoint, a log line, the same answer', async () => {
    const home = tempDir('agentgate-agents-home-');
    // A directory that holds the home directory (`/home`) would checkpoint it all, dotfiles and keys.
    const holder = tempDir('agentgate-agents-users-');
    const homeDir = join(holder, 'me');
    mkdirSync(homeDir);
    writeFileSync(join(homeDir, '.netrc'), 'machine example.com password secret\n');
    const gone = tempDir('agentgate-agents-gone-');
    rmSync(gone, { recursive: true });
    const bad = await runEventHook(s.agent, '{"nope": ', { home });
    // An event that cannot be read may be a prompt: Cursor lets it through.
    expect([bad.status, bad.answer]).toEqual(['invalid', answerOf(s, s.prompt)]);
    expect((await runEventHook(s.agent, '{"hello": 1}', { home, event: 'x' })).status).toBe('invalid');
    for (const where of ['/', homeDir, holder, gone]) {
      const o = await runEventHook(s.agent, agentEvent(s.agent, s.prompt, where), {
        home,
        cwd: where,
        homeDir,
        ...(s.agent === 'copilot' ? { event: eventOfFixture(s.prompt) } : {}),
      });
      expect([o.status, o.answer], o.message).toEqual(['ignored', answerOf(s, s.prompt)]);
    }
    const log = readFileSync(join(home, 'logs/hooks.log'), 'utf8');
    expect(log).toMatch(/is the file system root/);
    expect(log).toMatch(/is the home directory/);
    expect(log).toMatch(/holds the home directory/);
    expect(log).toMatch(/is not a directory/);
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
    // A repository that keeps HOME inside it (a hermetic build) is still a project.
    const repo = repoWithCommit();
    mkdirSync(join(repo, '.home'));
    const inRepo = await runEventHook(s.agent, agentEvent(s.agent, s.prompt, repo), {
      home,
      cwd: repo,
      homeDir: join(repo, '.home'),
      ...(s.agent === 'copilot' ? { event: eventOfFixture(s.prompt) } : {}),
    });
    expect(inRepo.status, inRepo.message).toBe('recorded');
  });
});

describe('agent quirks', () => {
  it.each([
    ['claude-code', 'CLAUDE_PROJECT_DIR', ['SessionStart', 'UserPromptSubmit', 'PostToolUse']],
    ['gemini', 'GEMINI_PROJECT_DIR', ['SessionStart', 'BeforeAgent', 'AfterTool-run_shell_command']],
    ['qwen', 'QWEN_PROJECT_DIR', ['SessionStart', 'UserPromptSubmit', 'PostToolUse-write_file']],
  ] as const)(
    '%s outside git: a tool event in a subdirectory is checkpointed in the project its %s names',
    async (agent, variable, [start, prompt, tool]) => {
      const root = tempDir('agentgate-agents-plain-');
      writeFiles(root, { 'a.txt': 'one\n', 'sub/b.txt': 'bee\n' });
      const home = tempDir('agentgate-agents-home-');
      const env = { [variable]: root };
      // A file-writing tool's event names the file it wrote: here a.txt, above its cwd.
      const fire = (name: string, cwd: string) =>
        runEventHook(agent, agentEvent(agent, name, cwd).replaceAll('factorial.py', '../a.txt'), {
          home,
          env,
          cwd,
        });
      expect((await fire(start, root)).status).toBe('recorded');
      expect((await fire(prompt, join(root, 'sub'))).status).toBe('recorded');
      writeFiles(root, { 'a.txt': 'changed\n' });
      expect((await fire(tool, join(root, 'sub'))).status).toBe('recorded');
      const cp = await Checkpoints.open(root, { home });
      expect(await cp.list()).toHaveLength(3);
      expect((await cp.restorePrompt(1)).restored).toEqual([join(root, 'a.txt')]);
      expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    },
  );

  it.each([
    ['claude-code', 'CLAUDE_PROJECT_DIR', ['SessionStart', 'UserPromptSubmit', 'PostToolUse']],
    ['gemini', 'GEMINI_PROJECT_DIR', ['SessionStart', 'BeforeAgent', 'AfterTool-write_file']],
    ['qwen', 'QWEN_PROJECT_DIR', ['SessionStart', 'UserPromptSubmit', 'PostToolUse-write_file']],
    ['codex', 'NO_PROJECT_DIR', ['SessionStart', 'UserPromptSubmit', 'PostToolUse-apply_patch']],
  ] as const)(
    '%s: an event in a repository nested in the project (%s) is checkpointed in that repository`s store',
    async (agent, variable, [start, prompt, tool]) => {
      const outer = repoWithCommit();
      const inner = join(outer, 'inner');
      writeFiles(inner, { 'factorial.py': 'old\n' });
      initRepo(inner);
      const home = tempDir('agentgate-agents-home-');
      const fire = (name: string) =>
        runEventHook(agent, agentEvent(agent, name, inner), { home, env: { [variable]: outer }, cwd: outer });
      for (const name of [start, prompt]) expect((await fire(name)).status).toBe('recorded');
      writeFiles(inner, { 'factorial.py': 'new\n' });
      expect((await fire(tool)).message).toContain(` in ${inner}`);
      const cp = await Checkpoints.open(inner, { home });
      expect((await cp.restorePrompt(1)).restored).toEqual([join(inner, 'factorial.py')]);
      expect(readFileSync(join(inner, 'factorial.py'), 'utf8')).toBe('old\n');
      // An event in a plain subdirectory of the project still goes to the project's store.
      const sub = join(outer, 'sub');
      writeFiles(sub, { 'x.txt': 'x\n' });
      const o = await runEventHook(agent, agentEvent(agent, prompt, sub), {
        home,
        env: { [variable]: outer },
      });
      expect(o.message).toContain(` in ${outer}`);
      // A .git that git takes for no repository (empty, or a file naming nothing) leaves its
      // directory part of the project, as git does.
      // (Without a project dir the event's own directory is opened, and such a .git is refused.)
      const odd = [
        ['empty', (d: string) => mkdirSync(join(d, '.git'), { recursive: true })],
        ['head-only', (d: string) => writeFiles(d, { '.git/HEAD': 'ref: refs/heads/main\n' })],
        ['broken', (d: string) => writeFileSync(join(d, '.git'), 'gitdir: /nonexistent\n')],
      ] as const;
      for (const [dir, make] of agent === 'codex' ? [] : odd) {
        const at = join(outer, dir);
        writeFiles(at, { 'y.txt': 'y\n' });
        make(at);
        const e = await runEventHook(agent, agentEvent(agent, prompt, at), {
          home,
          env: { [variable]: outer },
        });
        expect(e.status, e.message).toBe('recorded');
        expect(e.message).toContain(` in ${outer}`);
      }
    },
  );

  it('outside git, with no project root given (Codex): an event in a subdirectory joins the store its session started', async () => {
    const root = tempDir('agentgate-agents-plain-');
    writeFiles(root, { 'keep.txt': 'k\n', 'docs/readme.txt': 'r\n' });
    const home = tempDir('agentgate-agents-home-');
    const fire = (name: string, cwd: string) =>
      runEventHook('codex', agentEvent('codex', name, cwd), { home, cwd });
    expect((await fire('SessionStart', root)).status).toBe('recorded');
    expect((await fire('UserPromptSubmit', root)).status).toBe('recorded');
    writeFiles(root, { 'a.txt': 'a\n', 'docs/b.txt': 'b\n' });
    expect((await fire('PostToolUse-shell', join(root, 'docs'))).status).toBe('recorded');
    const cp = await Checkpoints.open(root, { home });
    expect(await cp.list()).toHaveLength(3);
    expect((await Checkpoints.open(join(root, 'docs'), { home })).location).toEqual(cp.location);
  });

  it('Codex: a failed tool fires no PostToolUse; the Stop of its turn still keeps its change', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-home-');
    const fire = (name: string) => runEventHook('codex', agentEvent('codex', name, ws), { home });
    await fire('UserPromptSubmit');
    writeFiles(ws, { 'half.txt': 'written before the tool failed\n' });
    expect((await fire('Stop')).status).toBe('recorded');
    const cp = await Checkpoints.open(ws, { home });
    const latest = (await cp.markers()).latest;
    expect(latest?.event).toBe('Stop');
    expect((await cp.patch(latest?.hash as string)).files).toEqual([]);
  });

  it('Codex names its session session_id, thread_id or thread-id', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-home-');
    for (const key of ['thread_id', 'thread-id']) {
      const e = JSON.parse(agentEvent('codex', 'UserPromptSubmit', ws)) as Record<string, unknown>;
      delete e.session_id;
      e[key] = `t-${key}`;
      expect((await runEventHook('codex', JSON.stringify(e), { home })).prompt).toBe(1);
    }
    const sessions = (await (await Checkpoints.open(ws, { home })).list()).map((e) => e.session);
    expect(sessions.sort()).toEqual(['t-thread-id', 't-thread_id']);
  });

  it('Qwen: a UserPromptSubmit without submitted_prompt (a continuation) keeps the latest state and is not numbered', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-home-');
    const fire = (name: string) => runEventHook('qwen', agentEvent('qwen', name, ws), { home });
    expect((await fire('UserPromptSubmit')).prompt).toBe(1);
    writeFiles(ws, { 'f.txt': 'x\n' });
    const cont = await fire('UserPromptSubmit-continuation');
    expect([cont.status, cont.prompt]).toEqual(['recorded', undefined]);
    expect((await fire('UserPromptSubmit')).prompt).toBe(2);
    const labels = (await (await Checkpoints.open(ws, { home })).list()).map((e) => e.label);
    expect(labels).toContain('UserPromptSubmit continuation');
    expect(labels).toContain('UserPromptSubmit: Add a factorial function');
  });

  it('Cursor: the workspace is workspace_roots[0], not the shell command`s cwd below it', async () => {
    const ws = repoWithCommit();
    writeFiles(ws, { 'src/a.txt': 'a\n' });
    const home = tempDir('agentgate-agents-home-');
    const o = await runEventHook('cursor', agentEvent('cursor', 'afterShellExecution', ws), { home });
    expect(o.message).toContain(`in ${ws}`);
  });

  it('Copilot: a camelCase payload names no event; without --event it is refused and logged', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-home-');
    const o = await runEventHook('copilot', agentEvent('copilot', 'postToolUse-bash', ws), { home });
    expect([o.status, o.answer]).toEqual(['invalid', '']);
    expect(o.message).toMatch(/--event NAME/);
  });

  it('Copilot: a PascalCase payload names its event (hook_event_name) and needs no --event', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-home-');
    const event = { hook_event_name: 'UserPromptSubmit', session_id: 'pascal-1', cwd: ws, prompt: 'go' };
    const o = await runEventHook('copilot', JSON.stringify(event), { home });
    expect([o.status, o.prompt]).toEqual(['recorded', 1]);
  });

  it('Windsurf: the workspace is the hook`s working directory (its workspace root), not a command`s cwd below it', async () => {
    // docs.windsurf.com/windsurf/cascade/hooks: a hook runs in `working_directory`, by default the workspace root.
    const ws = repoWithCommit();
    writeFiles(ws, { 'src/a.txt': 'a\n' });
    const home = tempDir('agentgate-agents-home-');
    const fire = (name: string) =>
      runEventHook('windsurf', agentEvent('windsurf', name, ws), { home, cwd: ws });
    expect((await fire('pre_user_prompt')).prompt).toBe(1);
    writeFiles(ws, { 'src/a.txt': 'changed by the command\n' });
    const shell = await fire('post_run_command-subdir');
    expect(shell.status).toBe('recorded');
    expect(shell.message).toContain(`in ${ws}`);
    expect(shell.message).not.toContain(`${ws}/src`);
    const mine = (await (await Checkpoints.open(ws, { home })).list()).filter(
      (e) => e.session === 'traj-9c8b7a6f',
    );
    expect(mine).toHaveLength(2);
    // A hook run from a directory that does not hold the command's cwd: the cwd names the workspace.
    const elsewhere = tempDir('agentgate-agents-elsewhere-');
    const event = JSON.parse(agentEvent('windsurf', 'post_run_command-subdir', ws)) as {
      tool_info: { cwd: string };
    };
    event.tool_info.cwd = ws;
    writeFiles(ws, { 'src/a.txt': 'changed again\n' });
    const named = await runEventHook('windsurf', JSON.stringify(event), { home, cwd: elsewhere });
    expect(named.status).toBe('recorded');
    expect(named.message).toContain(`in ${ws}`);
  });

  it.each([
    ['cursor', 'afterFileEdit', (e: Record<string, unknown>) => (e.file_path = null)],
    ['cursor', 'afterFileEdit', (e: Record<string, unknown>) => (e.file_path = 5)],
    [
      'windsurf',
      'post_write_code',
      (e: { tool_info: Record<string, unknown> }) => (e.tool_info.file_path = null),
    ],
    [
      'windsurf',
      'post_write_code',
      (e: { tool_info: Record<string, unknown> }) => (e.tool_info.file_path = 5),
    ],
    [
      'windsurf',
      'post_run_command-subdir',
      (e: { tool_info: Record<string, unknown> }) => (e.tool_info.cwd = null),
    ],
  ] as const)(
    '%s %s: a path field of another shape reads as absent; the step is still recorded',
    async (agent, name, spoil) => {
      const ws = repoWithCommit();
      const home = tempDir('agentgate-agents-home-');
      const event = JSON.parse(agentEvent(agent, name, ws)) as Record<string, unknown> & {
        tool_info: Record<string, unknown>;
      };
      spoil(event);
      writeFiles(ws, { 'factorial.py': 'x\n' });
      const o = await runEventHook(agent, JSON.stringify(event), { home, cwd: ws });
      expect(o.status).toBe('recorded');
      expect(await (await Checkpoints.open(ws, { home })).list()).toHaveLength(1);
    },
  );

  it('Windsurf: raw control characters inside JSON strings are read as the characters they are', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-agents-home-');
    const o = await runEventHook('windsurf', agentEvent('windsurf', 'pre_user_prompt', ws), {
      home,
      cwd: ws,
    });
    expect(o.status).toBe('recorded');
    const [entry] = await (await Checkpoints.open(ws, { home })).list();
    expect(entry?.label).toBe('pre_user_prompt: Add a factorial function and test it');
  });
});

describe('a tool event that names the files it wrote', () => {
  it('costs no git process more than one that names none, in a workspace of 1,000 files, and records them', async () => {
    const files = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`src/f${i}.txt`, `${i}\n`]));
    const ws = repoWithCommit(files);
    const home = tempDir('agentgate-agents-home-');
    const base = { session_id: 's', cwd: ws };
    const fire = async (fields: Record<string, unknown>) => {
      const start = gitCallCount();
      const o = await runEventHook('claude-code', JSON.stringify({ ...base, ...fields }), { home, cwd: ws });
      expect([o.status, o.message]).toEqual(['recorded', expect.stringMatching(/^latest checkpoint/)]);
      return gitCallCount() - start;
    };
    await runEventHook('claude-code', JSON.stringify({ ...base, hook_event_name: 'SessionStart' }), { home });
    await runEventHook('claude-code', JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit' }), {
      home,
    });
    const tool = (tool_name: string, tool_input: unknown) => ({
      hook_event_name: 'PostToolUse',
      tool_name,
      tool_input,
    });
    writeFiles(ws, { 'src/f1.txt': 'by a shell\n' });
    const shell = await fire(tool('Bash', { command: 'echo "by a shell" > src/f1.txt' }));
    writeFiles(ws, { 'src/f2.txt': 'by an edit\n' });
    const named = await fire(tool('Edit', { file_path: join(ws, 'src/f2.txt') }));
    // No more; the first may cost one more when the repository was set up under two seconds before
    // (the probe cache keeps nothing that recent).
    expect(named).toBeLessThanOrEqual(shell);
    // The edit's step is the session's for src/f2.txt only.
    writeFiles(ws, { 'src/f3.txt': 'someone else\n', 'src/f4.txt': 'by an edit\n' });
    await fire(tool('Write', { file_path: join(ws, 'src/f4.txt') }));
    const r = await (await Checkpoints.open(ws, { home })).restorePrompt(1, 's', { dryRun: true });
    expect(r.restored.sort()).toEqual(['src/f1.txt', 'src/f2.txt', 'src/f4.txt'].map((f) => join(ws, f)));
    expect(r.deleted).toEqual([]);
  });
});
