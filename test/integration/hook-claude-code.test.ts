/**
 * `hook claude-code` through the built CLI: the real event shapes on stdin, a session undone
 * prompt by prompt, and bad input of every kind. Whatever happens: exit 0, nothing on stdout.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../types/checkpoint.js';
import { treeState } from '../helpers/checkpoints.js';
import { CLI, runCli } from '../helpers/cli.js';
import { commitAll, git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/claude-code');
const SESSION = '00893aaf-19fa-41d2-8238-13269b9b3ca0';

/** A fixture event with `$CWD` set to the workspace, and fields replaced. */
function event(name: string, cwd: string, fields: Record<string, unknown> = {}): string {
  const raw = readFileSync(join(FIXTURES, `${name}.json`), 'utf8').replaceAll('$CWD', cwd);
  return JSON.stringify({ ...(JSON.parse(raw) as object), ...fields });
}

function hook(input: string, home: string, args: string[] = []) {
  return runCli(['hook', 'claude-code', ...args], { input, env: { AGENTGATE_HOME: home } });
}

/** Every hook run: exit 0 and nothing on stdout (Claude Code would show stdout to the model). */
function expectQuiet(res: ReturnType<typeof hook>): void {
  expect(res.status, res.stderr).toBe(0);
  expect(res.stdout).toBe('');
}

function list(ws: string, home: string): CheckpointEntry[] {
  return runCli(['checkpoint', 'list', '--json', '-C', ws], {
    env: { AGENTGATE_HOME: home },
  }).json() as CheckpointEntry[];
}

function logOf(home: string): string {
  return readFileSync(join(home, 'logs/hooks.log'), 'utf8');
}

describe('hook claude-code', () => {
  it('takes the real event shapes: SessionStart a baseline, UserPromptSubmit a numbered before-prompt checkpoint, PostToolUse and Stop the latest', () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n' });
    const home = tempDir('agentgate-hook-home-');
    for (const name of ['SessionStart', 'UserPromptSubmit']) expectQuiet(hook(event(name, ws), home));
    writeFiles(ws, { 'factorial.py': 'def factorial(n): ...\n' });
    expectQuiet(hook(event('PostToolUse', ws), home));
    writeFiles(ws, { 'factorial.py': 'def factorial(n): return 1\n' });
    expectQuiet(hook(event('Stop', ws), home));
    // Nothing changed since the latest checkpoint (a read-only tool, a second Stop): nothing new is recorded.
    expectQuiet(hook(event('Stop', ws), home));
    expect(logOf(home)).toMatch(/Stop session=\S+ recorded: unchanged since latest checkpoint \w+/);

    const entries = list(ws, home).reverse();
    expect(entries.map((e) => [e.event, e.session, e.prompt])).toEqual([
      ['SessionStart', SESSION, undefined],
      ['UserPromptSubmit', SESSION, 1],
      ['PostToolUse', SESSION, undefined],
      ['Stop', SESSION, undefined],
    ]);
    expect(entries.map((e) => e.label)).toEqual([
      'SessionStart startup',
      'UserPromptSubmit: Write a function to calculate the factorial of a number',
      'PostToolUse Write',
      'Stop',
    ]);
    const markers = runCli(['checkpoint', 'patch', 'baseline', '--json', '-C', ws], {
      env: { AGENTGATE_HOME: home },
    }).json() as { hash: string };
    expect(markers.hash).toBe(entries[0]?.hash);
    expect(logOf(home).trim().split('\n')).toHaveLength(5);
    expect(logOf(home)).toMatch(
      /UserPromptSubmit session=\S+ recorded: before-prompt checkpoint \w+, prompt 1/,
    );
    // The human list shows session, prompt number and event.
    const human = runCli(['checkpoint', 'list', '-C', ws], { env: { AGENTGATE_HOME: home } }).stdout;
    expect(human).toMatch(/SESSION\s+PROMPT\s+EVENT/);
    expect(human).toMatch(new RegExp(`${SESSION}\\s+1\\s+UserPromptSubmit`));
  });

  it('a prompt holding NUL and other control characters still gets its numbered checkpoint', () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n' });
    const home = tempDir('agentgate-hook-home-');
    expectQuiet(hook(event('UserPromptSubmit', ws, { prompt: 'fix\u0000this\u0007\u001b[31m now' }), home));
    const [entry] = list(ws, home);
    expect(entry).toMatchObject({ prompt: 1, label: 'UserPromptSubmit: fix\u0000this\u0007\u001b[31m now' });
    expect(logOf(home)).toMatch(/recorded: before-prompt checkpoint \w+, prompt 1/);
  });

  it('undoes any prompt of a session, shell-made changes included: restore --prompt N matches the state before prompt N file by file', () => {
    const ws = repoWithCommit({ 'keep.txt': 'keep\n', 'edit.txt': 'v0\n', 'gone.txt': 'here\n' });
    const home = tempDir('agentgate-hook-home-');
    const sh = (script: string) => spawnSync('sh', ['-c', script], { cwd: ws, stdio: 'ignore' });
    const prompt = (n: number, session = 'sess-a') =>
      expectQuiet(hook(event('UserPromptSubmit', ws, { session_id: session, prompt: `prompt ${n}` }), home));
    const tool = (session = 'sess-a') =>
      expectQuiet(hook(event('PostToolUse', ws, { session_id: session, tool_name: 'Bash' }), home));

    expectQuiet(hook(event('SessionStart', ws, { session_id: 'sess-a' }), home));
    const before: Array<Record<string, string>> = [];
    before[1] = treeState(ws);
    prompt(1);
    sh('echo v1 > edit.txt && mkdir -p src && echo new > src/new.txt');
    tool();
    before[2] = treeState(ws);
    prompt(2);
    sh('rm gone.txt && echo v2 >> edit.txt && chmod +x src/new.txt');
    tool();
    before[3] = treeState(ws);
    prompt(3);
    sh('rm -r src && printf "\\0bin" > data.bin && echo v3 > edit.txt');
    tool();
    const end = treeState(ws);

    const restore = (args: string[]) =>
      runCli(['checkpoint', 'restore', ...args, '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
    for (const n of [2, 1, 3]) {
      const res = restore(['--prompt', String(n)]);
      expect(res.status, res.stdout).toBe(0);
      expect(treeState(ws)).toEqual(before[n]);
    }
    // A later session numbers its prompts from 1; the older one stays reachable with --session.
    expectQuiet(hook(event('SessionStart', ws, { session_id: 'sess-b', source: 'resume' }), home));
    writeFiles(ws, { 'b.txt': 'session b\n' });
    prompt(1, 'sess-b');
    expect(list(ws, home)[0]).toMatchObject({ session: 'sess-b', prompt: 1 });
    expect(restore(['--prompt', '2', '--session', 'sess-a']).status).toBe(0);
    // Only session a's files go back: b.txt, written before session b's prompt, is not a's.
    const { 'b.txt': bFile, ...rest } = treeState(ws);
    expect(rest).toEqual(before[2]);
    expect(bFile).toBeDefined();
    // The latest session has no prompt 2: a coded error, nothing touched.
    const missing = restore(['--prompt', '2']);
    expect(missing.status).toBe(1);
    expect((missing.json() as { error: { code: string } }).error.code).toBe('CHECKPOINT_NOT_FOUND');
    // Back to the end of session a through its last tool checkpoint.
    const lastTool = list(ws, home).find((e) => e.session === 'sess-a' && e.event === 'PostToolUse');
    expect(restore([lastTool?.hash ?? '']).status).toBe(0);
    expect(treeState(ws)).toEqual(end);
    // HASH and --prompt are exclusive: a usage error.
    expect(restore([lastTool?.hash ?? '', '--prompt', '1']).status).toBe(2);
  });

  it('bad input: invalid JSON, empty stdin, not an event, an unknown event, a bad option, an invalid config: exit 0, nothing on stdout, one clear log line each', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-hook-home-');
    const cases: Array<[string, ReturnType<typeof hook>, RegExp]> = [
      ['invalid JSON', hook('{"session_id": ', home), /invalid: stdin is not a JSON event/],
      ['empty stdin', hook('', home), /ignored: no event on stdin \(empty input\)/],
      ['not an event', hook('{"hello":1}', home), /invalid: not a Claude Code hook event: cwd/],
      [
        'unknown event',
        hook(event('Stop', ws, { hook_event_name: 'PreCompact' }), home),
        /PreCompact session=\S+ ignored: no checkpoint for event "PreCompact"/,
      ],
      ['bad option', hook(event('Stop', ws), home, ['--bogus']), /failed: hook did not run: USAGE/],
    ];
    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  timeoutMs: soon\n');
    cases.push([
      'invalid config',
      hook(event('Stop', ws), home),
      /failed: hook did not run: CONFIG_INVALID: .*hooks\.timeoutMs/,
    ]);
    const lines = logOf(home).trim().split('\n');
    expect(lines).toHaveLength(cases.length);
    cases.forEach(([name, res, line], i) => {
      expectQuiet(res);
      expect(lines[i], name).toMatch(line);
    });
    // Problems (not an ignored event) are on stderr too.
    expect(cases[0]?.[1].stderr).toMatch(/^agentgate-snapshot hook: invalid: /);
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
  });

  it('a cwd that is gone is not a workspace: ignored with a log line; a directory outside git is checkpointed as today', () => {
    const home = tempDir('agentgate-hook-home-');
    const gone = tempDir('agentgate-hook-gone-');
    rmSync(gone, { recursive: true });
    expectQuiet(hook(event('SessionStart', gone), home));
    expect(logOf(home)).toMatch(/ignored: no checkpoint: the workspace \S+ is not a directory/);

    const plain = tempDir('agentgate-hook-plain-');
    writeFiles(plain, { 'notes.txt': 'no git here\n' });
    expectQuiet(hook(event('SessionStart', plain), home));
    expect(list(plain, home)).toHaveLength(1);
    expect(existsSync(join(plain, '.git'))).toBe(false);
  });

  it('a home that cannot be written (a file where it should be) or a full disk: exit 0, the reason on stderr, the workspace untouched', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const state = treeState(ws);
    const notADir = join(tempDir('agentgate-hook-ro-'), 'home');
    writeFileSync(notADir, 'a file, not a directory');
    const res = hook(event('SessionStart', ws), notADir);
    expectQuiet(res);
    expect(res.stderr).toMatch(
      /^agentgate-snapshot hook: failed: .*; could not write the hook log .*ENOTDIR/,
    );

    // A full disk: every write past 8 KiB fails (ulimit -f; EFBIG as ENOSPC would).
    writeFiles(ws, { 'big.txt': randomBytes(64 * 1024).toString('base64') });
    const home = tempDir('agentgate-hook-full-');
    const full = spawnSync(
      'bash',
      ['-c', `ulimit -f 8; trap '' XFSZ; exec "$0" "$@"`, process.execPath, CLI, 'hook', 'claude-code'],
      { input: event('SessionStart', ws), env: { ...process.env, AGENTGATE_HOME: home }, encoding: 'utf8' },
    );
    expect(full.status, full.stderr).toBe(0);
    expect(full.stdout).toBe('');
    expect(logOf(home)).toMatch(/failed: checkpoint failed: /);
    expect(treeState(ws)).toEqual({ ...state, 'big.txt': expect.any(String) });
    git(ws, ['status', '--porcelain']);
  });

  it.runIf(existsSync('/proc/self'))(
    'a home where no directory can be made (under /proc): exit 0 and the answer, at once (not at hooks.timeoutMs)',
    () => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      const config = join(tempDir('agentgate-hook-proc-'), 'config.yaml');
      writeFileSync(config, 'hooks:\n  timeoutMs: 1000\n');
      // Node's recursive mkdir spins there for ever (makeDirs does not); the spawn's own timeout
      // only guards this test.
      const res = spawnSync(process.execPath, [CLI, 'hook', 'gemini', '--config', config], {
        input: event('PostToolUse', ws),
        env: { ...process.env, AGENTGATE_HOME: '/proc/self/agentgate-home' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(res.signal).toBeNull();
      expect(res.status, res.stderr).toBe(0);
      expect(res.stdout).toBe('{}\n');
      expect(res.stderr).not.toMatch(/not done within hooks\.timeoutMs/);
    },
  );

  it('two hooks of one session at once: the store lock serialises them; both prompts are recorded with distinct numbers', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-hook-home-');
    expectQuiet(hook(event('SessionStart', ws), home));
    const runAsync = (input: string) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'hook', 'claude-code'], {
          env: { ...process.env, AGENTGATE_HOME: home },
        });
        let stdout = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.on('close', (code) => resolve({ code, stdout }));
        child.stdin.end(input);
      });
    const results = await Promise.all(
      ['first', 'second', 'third'].map((p) => runAsync(event('UserPromptSubmit', ws, { prompt: p }))),
    );
    expect(results).toEqual(Array(3).fill({ code: 0, stdout: '' }));
    const prompts = list(ws, home)
      .map((e) => e.prompt)
      .filter((p) => p !== undefined)
      .sort();
    expect(prompts).toEqual([1, 2, 3]);
  });

  it('a huge prompt: only a short label is kept (unless hooks.recordPrompts), the log gives its length', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-hook-home-');
    const huge = `${'secret words '.repeat(400_000)}`; // about 5 MB
    expectQuiet(hook(event('UserPromptSubmit', ws, { prompt: huge }), home));
    const [entry] = list(ws, home);
    expect(entry?.label).toBe(`UserPromptSubmit: ${huge.trim().slice(0, 60)}…`);
    expect(logOf(home)).toMatch(new RegExp(`prompt text ${huge.length} chars`));
    expect(logOf(home).length).toBeLessThan(2000);

    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  recordPrompts: true\n');
    expectQuiet(hook(event('UserPromptSubmit', ws, { prompt: 'line one\nline two' }), home));
    expect(list(ws, home)[0]?.label).toBe('UserPromptSubmit: line one\nline two');
  });

  it('a prompt is cut where a character ends: no half of a surrogate pair in the label (60) or the recorded prompt (10,000)', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-hook-home-');
    expectQuiet(hook(event('UserPromptSubmit', ws, { prompt: `${'a'.repeat(59)}😀tail` }), home));
    expect(list(ws, home)[0]?.label).toBe(`UserPromptSubmit: ${'a'.repeat(59)}😀…`);
    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  recordPrompts: true\n');
    expectQuiet(hook(event('UserPromptSubmit', ws, { prompt: `${'a'.repeat(9_999)}😀tail` }), home));
    const label = list(ws, home)[0]?.label as string;
    expect(label).toBe(`UserPromptSubmit: ${'a'.repeat(9_999)}😀…`);
    expect(label.isWellFormed()).toBe(true);
  });

  it('hooks.timeoutMs: a checkpoint that cannot finish in time is skipped and logged, and the store stays usable', () => {
    const ws = repoWithCommit();
    writeFiles(ws, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.txt`, `${i}\n`])));
    const home = tempDir('agentgate-hook-home-');
    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  timeoutMs: 1\n');
    expectQuiet(hook(event('SessionStart', ws), home));
    expect(logOf(home)).toMatch(/within hooks\.timeoutMs \(1 ms\)/);
    unlinkSync(join(home, 'config.yaml'));
    expectQuiet(hook(event('SessionStart', ws), home));
    expect(logOf(home)).toMatch(/recorded: baseline checkpoint/);
    commitAll(ws, 'files');
  });
});
