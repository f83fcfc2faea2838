/**
 * `-o FILE` (report, patch, export, attest) interrupted by a signal in the middle of the write (Ctrl-C,
 * a cancelled CI job): the file is as it was, nothing of the write is left beside it or in TMPDIR,
 * and the process still ends by that signal.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { finished, printed } from '../helpers/node-child.js';
import { tempDir } from '../helpers/repo.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

const CHILD = fileURLToPath(new URL('../helpers/output-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The child in the middle of writing `file`, then ended by `signal`: how it ended. */
async function interrupted(file: string, signal: NodeJS.Signals, tmp: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'hold', file], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = finished(child);
  await printed(child, 'writing');
  child.kill(signal);
  return done;
}

describe('an -o FILE write ended by a signal', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    '%s: the file is as it was, no temp file is left beside it, and the process ends by the signal',
    async (signal) => {
      const dir = tempDir('agentgate-out-');
      const tmp = tempDir('agentgate-tmp-');
      cleanup.push(dir, tmp);
      writeFileSync(join(dir, 'report.html'), 'the previous report');
      const res = await interrupted(join(dir, 'report.html'), signal, tmp);
      expect(res.signal, res.stderr).toBe(signal);
      expect(readdirSync(dir)).toEqual(['report.html']);
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe('the previous report');
      const fresh = await interrupted(join(dir, 'new.md'), signal, tmp);
      expect(fresh.signal).toBe(signal);
      expect(readdirSync(dir)).toEqual(['report.html']);
    },
  );

  it('through a symbolic link: the temp directory made in TMPDIR is removed too', async () => {
    const dir = tempDir('agentgate-out-');
    const tmp = tempDir('agentgate-tmp-');
    cleanup.push(dir, tmp);
    writeFileSync(join(dir, 'target.html'), 'kept');
    symlinkSync(join(dir, 'target.html'), join(dir, 'link.html'));
    const res = await interrupted(join(dir, 'link.html'), 'SIGTERM', tmp);
    expect(res.signal).toBe('SIGTERM');
    // (tsx, which runs the child, keeps its own cache there.)
    expect(readdirSync(tmp).filter((n) => n.startsWith('agentgate-'))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['link.html', 'target.html']);
  });
});
