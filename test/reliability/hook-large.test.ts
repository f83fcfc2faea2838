/** A hook on a 30,000-file workspace through the built CLI: it completes, exits 0 and records the checkpoint. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { commitAll, initRepo, tempDir } from '../helpers/repo.js';

const FILES = 30_000;

describe('hook claude-code on a large workspace', () => {
  it(`${FILES} files: SessionStart and UserPromptSubmit complete, exit 0, nothing on stdout`, () => {
    const ws = initRepo();
    for (let d = 0; d < 300; d += 1) {
      mkdirSync(join(ws, `dir${d}`));
      for (let f = 0; f < FILES / 300; f += 1)
        writeFileSync(join(ws, `dir${d}`, `file${f}.txt`), `${d}/${f}\n`);
    }
    commitAll(ws, 'many files');
    writeFileSync(join(ws, 'dir0', 'file0.txt'), 'changed\n');
    const home = tempDir('agentgate-hook-large-home-');
    // The budget is not under test here (no wall-clock threshold): it is set out of the way on a shared machine.
    writeFileSync(join(home, 'config.yaml'), 'hooks:\n  timeoutMs: 600000\n');
    const env = { AGENTGATE_HOME: home };
    const base = { session_id: 'big', cwd: ws, transcript_path: '/t.jsonl' };
    for (const e of [
      { ...base, hook_event_name: 'SessionStart', source: 'startup' },
      { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'go' },
    ]) {
      const res = runCli(['hook', 'claude-code'], { input: JSON.stringify(e), env });
      expect(res.status, res.stderr).toBe(0);
      expect(res.stdout).toBe('');
    }
    const log = readFileSync(join(home, 'logs/hooks.log'), 'utf8');
    expect(log).toMatch(/SessionStart session=big recorded: baseline checkpoint/);
    expect(log).toMatch(/UserPromptSubmit session=big recorded: before-prompt checkpoint \w+, prompt 1/);
  }, 900_000);
});
