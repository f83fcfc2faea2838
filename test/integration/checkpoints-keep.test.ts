/**
 * `checkpoints.keep` applied as checkpoints are made: a checkpoint per tool call cannot push a
 * session's baseline or prompt checkpoints out of reach, and what is dropped never changes what a
 * session's restore puts back (src/checkpoints/sessions.ts, `thinnable`).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/hooks/index.js';
import { openCheckpoints, sessionHooks as session, treeState } from '../helpers/checkpoints.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('checkpoints.keep as checkpoints are made', () => {
  it("keeps every baseline and prompt checkpoint and each turn's last change; every prompt still restores exactly", async () => {
    const ws = repoWithCommit({ 'f.txt': 'f0\n' });
    const cp = await openCheckpoints(ws, { keep: 3 });
    const a = session(cp, 'sess-a');
    await a.start();
    const atPrompt: Array<Record<string, string>> = [];
    for (let turn = 1; turn <= 5; turn += 1) {
      atPrompt[turn] = treeState(ws);
      await a.prompt();
      for (let call = 1; call <= 4; call += 1) {
        writeFiles(ws, { 'f.txt': `f${turn}.${call}\n`, [`turn${turn}/call${call}.txt`]: 'x\n' });
        await a.tool();
      }
    }
    const entries = await cp.list();
    const roles = entries.map((e) => e.role).reverse();
    // Thinned at each prompt: the newest 3 at that moment stay, then one change per earlier turn.
    expect(roles).toEqual([
      'baseline',
      ...['prompt', 'change', 'prompt', 'change', 'prompt', 'change', 'prompt', 'change', 'change'],
      ...['prompt', 'change', 'change', 'change', 'change'],
    ]);
    expect(entries.filter((e) => e.prompt !== undefined).map((e) => e.prompt)).toEqual([5, 4, 3, 2, 1]);
    for (const turn of [3, 1, 5]) {
      const r = await cp.restorePrompt(turn, 'sess-a');
      expect(r.conflicts).toEqual([]);
      expect(treeState(ws)).toEqual(atPrompt[turn]);
    }
  });

  it("two sessions taking turns: only runs of one session's changes are thinned, so each session's restore stays exact", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const cp = await openCheckpoints(ws, { keep: 1 });
    const a = session(cp, 'sess-a');
    const b = session(cp, 'sess-b');
    await a.start();
    await b.start();
    await a.prompt();
    await b.prompt();
    for (let call = 1; call <= 3; call += 1) {
      writeFiles(ws, { 'a.txt': `a${call}\n` });
      await a.tool();
      writeFiles(ws, { 'a.txt': `a${call}.2\n` });
      await a.tool();
      writeFiles(ws, { 'b.txt': `b${call}\n` });
      await b.tool();
    }
    await a.prompt();
    await b.prompt();
    const changes = (await cp.list()).filter((e) => e.role === 'change').reverse();
    // a, a, b per round: the first a of each round goes.
    expect(changes.map((e) => e.session)).toEqual([
      'sess-a',
      'sess-b',
      'sess-a',
      'sess-b',
      'sess-a',
      'sess-b',
    ]);
    const r = await cp.restorePrompt(1, 'sess-a');
    expect(r.conflicts).toEqual([]);
    expect([readFileSync(join(ws, 'a.txt'), 'utf8'), readFileSync(join(ws, 'b.txt'), 'utf8')]).toEqual([
      'a0\n',
      'b3\n',
    ]);
  });

  it("over the budget, tool checkpoints go before any session's baseline or prompt checkpoint", async () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n' });
    const cp = await openCheckpoints(ws, { maxStoreBytes: 600 * 1024 });
    const a = session(cp, 'sess-a');
    await a.start();
    const atPrompt1 = treeState(ws);
    for (let turn = 1; turn <= 6; turn += 1) {
      await a.prompt();
      // About 130 KiB of incompressible content in each turn's first tool call, gone by its second:
      // six of them are over the budget, the prompt checkpoints are small.
      writeFiles(ws, { 'big.bin': randomBytes(100 * 1024).toString('base64') });
      expect((await a.tool()).upkeepError).toBeUndefined();
      rmSync(join(ws, 'big.bin'));
      writeFiles(ws, { 'step.txt': `${turn}\n` });
      expect((await a.tool()).upkeepError).toBeUndefined();
    }
    const status = await cp.status();
    const removed = status.pruned.flatMap((p) => p.removed);
    expect(removed.length).toBeGreaterThan(0);
    expect(new Set(removed.map((e) => e.role))).toEqual(new Set(['change']));
    const left = await cp.list();
    expect(left.filter((e) => e.role === 'prompt').map((e) => e.prompt)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(left.at(-1)?.role).toBe('baseline');
    // What went was covered by the next checkpoint of the same session: the restore is still exact.
    expect((await cp.restorePrompt(1, 'sess-a')).conflicts).toEqual([]);
    expect(treeState(ws)).toEqual(atPrompt1);
  });

  it('hooks take checkpoints.keep from config.yaml', async () => {
    const ws = repoWithCommit({ 'f.txt': 'f0\n' });
    const home = tempDir('agentgate-keep-home-');
    writeFileSync(join(home, 'config.yaml'), 'checkpoints:\n  keep: 1\n');
    const event = (name: string, fields: Record<string, unknown> = {}) =>
      runClaudeCodeHook(JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: name, ...fields }), {
        home,
      });
    expect((await event('SessionStart', { source: 'startup' })).status).toBe('recorded');
    await event('UserPromptSubmit', { prompt: 'one' });
    for (let call = 1; call <= 3; call += 1) {
      writeFiles(ws, { 'f.txt': `f${call}\n` });
      expect((await event('PostToolUse', { tool_name: 'Write' })).status).toBe('recorded');
    }
    await event('UserPromptSubmit', { prompt: 'two' });
    const cp = await openCheckpoints(ws, { home });
    expect((await cp.list()).map((e) => e.role)).toEqual(['prompt', 'change', 'prompt', 'baseline']);
  });
});
