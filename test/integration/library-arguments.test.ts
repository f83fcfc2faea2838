/**
 * The library's public entry points called from plain JavaScript with what their types do not
 * allow: INVALID_ARGUMENT before anything is recorded, never a TypeError from deep inside; and the
 * agent hooks, which never throw or print, give an `invalid` outcome instead.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { Gates } from '../../src/gates/gates.js';
import { logOutcome, runAgentHook, runEventHook } from '../../src/hooks/index.js';
import { writeReport } from '../../src/report/index.js';
import { resolveSettings } from '../../src/store/config.js';
import { resolveHome } from '../../src/store/paths.js';
import { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import { expectCode } from '../helpers/codes.js';
import { quiet } from '../helpers/gates.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { fingerprint, newSnapshotter } from '../helpers/snapshotter.js';

/** Calls `fn` as JavaScript would, with whatever arguments (a synchronous throw becomes a rejection). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const js = (fn: (...args: any[]) => unknown, ...args: unknown[]) => Promise.resolve().then(() => fn(...args));

const INVALID = 'INVALID_ARGUMENT';

/** A workspace whose run r has one iteration, its Snapshotter and Gates. */
async function oneIteration() {
  const dir = repoWithCommit();
  const s = newSnapshotter();
  await s.captureBeforeState(dir, { runId: 'r' });
  writeFiles(dir, { 'a.txt': 'a\n' });
  const snapshot = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
  return { dir, s, g: new Gates(s), snapshot };
}

describe('library: an empty home or artifacts directory is refused', () => {
  it('resolveSettings, resolveHome, Checkpoints.open: INVALID_ARGUMENT, nothing made in the working directory', async () => {
    const cwd = tempDir('agentgate-cwd-');
    const home = tempDir('agentgate-home-');
    await expectCode(resolveSettings({ home: '', cwd }), INVALID);
    await expectCode(resolveSettings({ home, artifactsDir: '', cwd }), INVALID);
    await expectCode(js(resolveHome, ''), INVALID);
    await expectCode(Checkpoints.open(repoWithCommit(), { home: '' }), INVALID);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('lockTimeoutMs 0, a NaN timeout, an unknown onDirty, an empty identity: refused as config.yaml refuses them', async () => {
    const home = tempDir('agentgate-home-');
    for (const bad of [
      { lockTimeoutMs: 0 },
      { gitTimeoutMs: Number.NaN },
      { onDirty: 'x' },
      { identity: { name: '', email: '' } },
    ])
      await expectCode(js(resolveSettings, { home, ...bad }), INVALID);
    await expectCode(js(resolveSettings, undefined), INVALID);
    // Valid settings still resolve.
    const settings = await resolveSettings({ home, lockTimeoutMs: 1, onDirty: 'error' });
    expect(settings.lockTimeoutMs).toBe(1);
  });
});

describe('library: wrong argument types are INVALID_ARGUMENT', () => {
  it('Snapshotter: constructor and every method, before anything is recorded', async () => {
    await expectCode(
      js(() => new Snapshotter(undefined as never)),
      INVALID,
    );
    const { dir, s, snapshot } = await oneIteration();
    const before = fingerprint(dir);
    const run = JSON.stringify(await s.store.loadRun('r'));
    const start = { ...(await s.store.loadRun('r'))!.before!, sha: snapshot.afterSha };
    const calls: Array<() => Promise<unknown>> = [
      () => s.captureBeforeState(42 as never, { runId: 'r' }),
      () => s.captureBeforeState(dir, undefined as never),
      () => s.captureBeforeState(dir, { runId: 5 as never }),
      () => s.captureBeforeState(dir, { runId: 'r', branch: 7 as never }),
      () => s.captureAfterState(dir, null, undefined as never),
      () => s.captureAfterState(dir, null, { runId: 'r', iteration: 2, beforeSha: 12 as never }),
      // Another run's before state: run r's iteration would start where run "other" was told to.
      () => s.captureAfterState(dir, { ...start, runId: 'other' }, { runId: 'r', iteration: 2 }),
      () => s.iterate(dir, { runId: 'r', iteration: 2 } as never),
      () => s.iterate(dir, { runId: 'r', iteration: 2, agent: { argv: 'ls' as never } }),
      // No program (or an empty name), or a NUL byte no process argument can hold (Node's own TypeError, once recorded).
      () => s.iterate(dir, { runId: 'r', iteration: 2, agent: { argv: [] } }),
      () => s.iterate(dir, { runId: 'r', iteration: 2, agent: { argv: ['', 'x'] } }),
      () => s.iterate(dir, { runId: 'r', iteration: 2, agent: { argv: ['sh', '-c', 'true', 'a\0b'] } }),
      () => s.getSnapshot(5 as never),
      () => s.getSnapshot(undefined as never),
      () => s.listByRun(5 as never),
      () => s.delete(5 as never),
      () => s.generatePatch(undefined as never),
      () => s.stats(dir, 1 as never, 2 as never),
      () => s.verify(undefined as never),
      () => s.verify({} as never),
      () => s.verify({ all: false } as never),
    ];
    for (const call of calls) await expectCode(call(), INVALID);
    expect(fingerprint(dir)).toBe(before);
    expect(JSON.stringify(await s.store.loadRun('r'))).toBe(run);
    expect((await s.listByRun('r')).map((x) => x.id)).toEqual([snapshot.id]);
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });

  it('a branch or report path holding half a surrogate pair (no UTF-8 form): refused, not made under another name', async () => {
    const { dir, s } = await oneIteration();
    const out = tempDir('agentgate-out-');
    // git and the file system got U+FFFD in its place, while the record and the answer named the half.
    await expectCode(s.captureBeforeState(dir, { runId: 'b', branch: 'b\ud800' }), INVALID);
    await expectCode(writeReport(s, 'md', join(out, 'o\udc80.md'), 'r'), INVALID);
    // A NUL byte was WRITE_FAILED, telling to check free space and permissions.
    await expectCode(writeReport(s, 'md', join(out, 'o\0.md'), 'r'), INVALID);
    expect(await s.store.loadRun('b')).toBeNull();
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(join(dir, '.git', 'refs', 'heads'))).toEqual(['main']);
  });

  it('Gates: constructor, run, list and verify; a string command records no verdict', async () => {
    await expectCode(
      js(() => new Gates(undefined as never)),
      INVALID,
    );
    const { dir, g } = await oneIteration();
    const gate = { runId: 'r', name: 'test', command: ['true'], echo: quiet() };
    const replay = { runId: 'r', iteration: 1, name: 'test', confirmed: true, echo: quiet() };
    const calls: Array<() => Promise<unknown>> = [
      () => g.run(dir, undefined as never),
      () => g.run(dir, { ...gate, command: 'true' as never }),
      () => g.run(dir, { ...gate, junit: 'x.xml' as never }),
      () => g.run(dir, { ...gate, name: 5 as never }),
      () => g.run(dir, { ...gate, iteration: Number.NaN }),
      () => g.list({ runId: 'r', iteration: '1' as never }),
      () => g.verify({ runId: 'r' }, { requireGates: [5 as never] }),
      () => g.verify({} as never, { requireGates: ['test'] }),
      () => g.verify({ all: false } as never),
      () => g.verify({ runId: undefined } as never),
      () => g.verify({ all: true }, { requireGates: ['test'] }),
      // An attempt is a whole number from 1: not a gate that was not found.
      ...[1.5, 0, -1].map((attempt) => () => g.replay(dir, { ...replay, attempt })),
    ];
    for (const call of calls) await expectCode(call(), INVALID);
    expect((await g.list({ runId: 'r' })).results).toEqual([]);
  });

  it('Gates: a signal to forward that no process can catch is refused before the check starts', async () => {
    const { dir, g } = await oneIteration();
    const marker = join(tempDir('agentgate-check-'), 'started');
    const gate = { runId: 'r', name: 'test', command: ['touch', marker], echo: quiet() };
    const listeners = process.listenerCount('SIGINT');
    // process.on('SIGKILL') threw EINVAL once the check had started: no verdict, the check left
    // running, and our SIGINT listener left behind (the caller's Ctrl-C forwarded to nothing).
    for (const forwardSignals of [['SIGINT', 'SIGKILL'], ['SIGSTOP'], ['exit'], ['SIGINT', 'SIGNOPE']])
      await expectCode(g.run(dir, { ...gate, forwardSignals: forwardSignals as never }), INVALID);
    await expectCode(
      g.replay(dir, {
        runId: 'r',
        iteration: 1,
        name: 'test',
        confirmed: true,
        forwardSignals: ['SIGKILL'] as never,
      }),
      INVALID,
    );
    expect(process.listenerCount('SIGINT')).toBe(listeners);
    expect(existsSync(marker)).toBe(false);
    expect((await g.list({ runId: 'r' })).results).toEqual([]);
  });

  it('Checkpoints: open and its methods', async () => {
    const dir = repoWithCommit();
    const home = tempDir('agentgate-home-');
    for (const opts of [{ home: 5 }, { excludePaths: 'x' }, { signal: 5 }, { lockTimeoutMs: 0 }])
      await expectCode(js(Checkpoints.open, dir, { home, ...opts }), INVALID);
    await expectCode(js(Checkpoints.open, undefined), INVALID);
    const cp = await Checkpoints.open(dir, { home });
    const first = await cp.track('one');
    const calls: Array<() => Promise<unknown>> = [
      () => cp.track(5 as never),
      () => cp.patch(undefined as never),
      () => cp.diff(undefined as never),
      () => cp.restore(undefined as never),
      () => cp.diffFull(1 as never, 2 as never),
      () => cp.revert(undefined as never),
      () => cp.revert([{}] as never),
    ];
    for (const call of calls) await expectCode(call(), INVALID);
    expect((await cp.list()).map((e) => e.hash)).toEqual([first.hash]);
  });
});

describe('library: the agent hooks never throw nor print on wrong arguments', () => {
  it('an invalid outcome for a missing or wrong event, options, kind, agent or input', async () => {
    const home = tempDir('agentgate-home-');
    const workspace = repoWithCommit();
    const event = { agent: 'test', workspace, session: 's', event: 'E', kind: 'latest' as const };
    const stderr = vi.spyOn(process.stderr, 'write');
    const outcomes = [
      await js(runAgentHook, undefined, { home }),
      await js(runAgentHook, event, { home: 5 }),
      await js(runAgentHook, event, { home: '' }),
      await js(runAgentHook, event, { home, deadline: Number.NaN }),
      await js(runAgentHook, { ...event, kind: 'bogus' }, { home }),
      await js(runEventHook, 'nope', '{}', { home }),
      await js(runEventHook, 'claude-code', undefined, { home }),
      await js(logOutcome, undefined, undefined, undefined),
    ];
    expect(stderr).not.toHaveBeenCalled();
    stderr.mockRestore();
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 'invalid' });
    // Nothing was checkpointed: no store was made under the home.
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
  });
});
