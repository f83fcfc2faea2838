/**
 * `agentgate-snapshot demo`: the main job end to end on a throwaway workspace and home, through the
 * built CLI. It must succeed, show three iterations, verify clean, and leave the user's home alone.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';

const Summary = z.object({
  workspace: z.string(),
  home: z.string(),
  runId: z.string(),
  iterations: z.array(
    z.object({
      iteration: z.number(),
      id: z.string(),
      filesChanged: z.number(),
      patchPath: z.string().nullable(),
      gate: z.object({ name: z.string(), verdict: z.string() }),
    }),
  ),
  verify: z.object({ ok: z.boolean(), checks: z.number(), failed: z.number() }),
});

describe('demo', () => {
  it('prints a table of 3 iterations and a clean verify, leaving $HOME/.agentgate untouched', () => {
    const home = tempDir('agentgate-user-');
    const res = runCli(['demo'], {
      cwd: home,
      env: { HOME: home, AGENTGATE_HOME: undefined, NO_COLOR: undefined },
    });
    const workspace = /^Run \S+ in (.+)$/m.exec(res.stdout)?.[1] as string;
    expect(res.status, res.stderr).toBe(0);
    // Nothing of the throwaway run is left behind.
    expect(existsSync(dirname(workspace))).toBe(false);
    expect(res.stderr).toBe('');
    expect(res.stdout).not.toContain('\u001b[');
    expect(res.stdout).toMatch(/^ITER\s+FILES\s+\+\s+-\s+BEFORE\s+AFTER\s+GATE\s+PATCH$/m);
    const rows = res.stdout
      .split('\n')
      .filter((line) => /^\s*\d+\s+\d+\s+\+\d+\s+-\d+\s+[0-9a-f]{10}\s+[0-9a-f]{10}\s/.test(line));
    expect(rows.map((r) => r.trim().split(/\s+/)[0])).toEqual(['1', '2', '3']);
    // The test gate goes red on the second iteration and green again on the third.
    expect(rows.map((r) => /test (pass|fail) (\d+\/\d+)/.exec(r)?.slice(1))).toEqual([
      ['pass', '2/2'],
      ['fail', '1/2'],
      ['pass', '2/2'],
    ]);
    expect(res.stdout).toMatch(/verify: all \d+ checks passed/);
    expect(readdirSync(home)).toEqual([]);
  });

  it('with --json prints one summary whose verify.ok is true, and ignores $AGENTGATE_HOME', () => {
    const user = tempDir('agentgate-user-');
    const agentgateHome = join(user, 'agentgate-home');
    const res = runCli(['demo', '--json', '--keep'], {
      cwd: user,
      env: { HOME: user, AGENTGATE_HOME: agentgateHome },
    });
    const summary = Summary.parse(res.json());
    // --keep leaves the workspace for a look.
    expect(existsSync(join(summary.workspace, 'README.md'))).toBe(true);
    rmSync(dirname(summary.workspace), { recursive: true, force: true });
    expect(res.status, res.stderr).toBe(0);
    expect(summary.verify).toMatchObject({ ok: true, failed: 0 });
    expect(summary.iterations.map((i) => i.iteration)).toEqual([1, 2, 3]);
    expect(summary.iterations.every((i) => i.filesChanged > 0 && i.patchPath !== null)).toBe(true);
    expect(summary.iterations.map((i) => i.gate.verdict)).toEqual(['pass', 'fail', 'pass']);
    expect(summary.home.startsWith(user)).toBe(false);
    expect(existsSync(agentgateHome)).toBe(false);
    expect(readdirSync(user)).toEqual([]);
  });
});
