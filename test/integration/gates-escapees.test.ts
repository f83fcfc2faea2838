/**
 * A process the check started that left its process group (`setsid`, a daemon), its output
 * closed so that nothing waits for it: the group kill at the check's end does not reach it, and
 * had it lived on, it could edit the workspace after the second look at it (an edit the verdict
 * never saw). It is ended with the check, before `gate` looks at the workspace again.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatedRun, isRunning, quiet } from '../helpers/gates.js';
import { tempDir } from '../helpers/repo.js';

/** The check: starts a daemon in a session of its own that would edit README.md later, waits until it runs, exits 0. */
function daemonCheck(pidFile: string, detach: string): string[] {
  const daemon = `echo $$ > "${pidFile}.tmp"; mv "${pidFile}.tmp" "${pidFile}"; sleep 600; echo edited >> README.md`;
  return [
    'sh',
    '-c',
    `${detach} sh -c '${daemon}' </dev/null >/dev/null 2>&1 &
     while [ ! -s '${pidFile}' ]; do sleep 0.05; done; exit 0`,
  ];
}

describe('a process that left the check’s group', () => {
  it.each([
    ['setsid', 'setsid'],
    ['setsid, then nohup (its own session, no output)', 'setsid nohup'],
  ])('%s: ended with the check, so it cannot edit what was judged', async (_label, detach) => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'a\n' }]);
    const pidFile = join(tempDir(), 'daemon.pid');
    let pid = 0;
    try {
      const result = await gates.run(dir, {
        runId: 'r1',
        name: 'daemon',
        command: daemonCheck(pidFile, detach),
        echo: quiet(),
      });
      expect(result).toMatchObject({ verdict: 'pass', exitCode: 0 });
      pid = Number(readFileSync(pidFile, 'utf8'));
      expect(isRunning(pid)).toBe(false);
    } finally {
      if (pid === 0 && existsSync(pidFile)) pid = Number(readFileSync(pidFile, 'utf8'));
      if (pid > 0 && isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
