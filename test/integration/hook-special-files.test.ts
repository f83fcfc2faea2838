/**
 * An agent hook ends within its time budget, exit 0, whatever stands in the home: a FIFO in place
 * of one of the checkpoint store's own files, or of the hook log, is never waited on. (A read or an
 * open pending on a FIFO keeps even process.exit from ending the process: the hook would hang for
 * ever, and the agent with it.)
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

interface Ended {
  status: number | null;
  killed: boolean;
  stdout: string;
  stderr: string;
}

/** The hook with `event` on stdin, killed after `limitMs` if it has not ended by itself by then. */
function hook(home: string, event: string, limitMs: number): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'hook', 'claude-code', '--home', home], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, limitMs);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, killed, stdout, stderr });
    });
    child.stdin.end(event);
  });
}

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

describe('an agent hook and special files in the home', () => {
  it('a FIFO in place of a store file or the hook log: the hook ends by itself, exit 0', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const pristine = tempDir('agentgate-hook-fifo-home-');
    writeFileSync(join(pristine, 'config.yaml'), 'hooks: { timeoutMs: 1000 }\n');
    const event = (name: string) =>
      JSON.stringify({ hook_event_name: name, session_id: 's', cwd: ws, prompt: 'p' });
    for (const name of ['SessionStart', 'UserPromptSubmit']) {
      const res = runCli(['hook', 'claude-code', '--home', pristine], { input: event(name) });
      expect(res.status, res.stderr).toBe(0);
    }
    writeFiles(ws, { 'b.txt': 'b\n' });
    const own = filesBelow(pristine).filter((f) =>
      /(^|\/)(store|probe|budget)\.json$|\/prompts\/[^/]+\/1$|\/git\/HEAD$|checkpoints-meta\/latest$|^logs\/hooks\.log$/.test(
        f,
      ),
    );
    expect(own.length, own.join(', ')).toBeGreaterThanOrEqual(7);
    for (const file of own) {
      const home = tempDir('agentgate-hook-fifo-copy-');
      cpSync(pristine, home, { recursive: true });
      rmSync(join(home, file));
      execFileSync('mkfifo', [join(home, file)]);
      // Well past hooks.timeoutMs (1 s): a hook still running then hangs.
      const res = await hook(home, event('UserPromptSubmit'), 20_000);
      expect([file, res.killed, res.status, res.stdout]).toEqual([file, false, 0, '']);
    }
  });
});
