/**
 * Write failures inside the library: ENOSPC, EACCES and EIO injected into node:fs/promises (tests
 * run as root, where permissions stop nothing) at every place the store, the locks, the patch
 * artifacts and the checkpoint store write. Each failure is WRITE_FAILED, leaves every previous
 * file byte-identical and no temporary file behind, and the next call without the fault succeeds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { leftoverTemps, report, treeDigest } from './support.js';

type Op = 'open' | 'write' | 'sync' | 'rename' | 'copyFile' | 'writeFile' | 'stream';

/** The fault to inject: on which operation, for which paths, with which errno; `after` lets that many matching calls through first. */
const fault = vi.hoisted(() => ({
  current: null as null | { op: string; match: RegExp; code: string; after: number },
  hits: 0,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const errno = (code: string, path: string) =>
    Object.assign(new Error(`injected ${code}: ${path}`), { code, path });
  const trip = (op: string, path: unknown): string | null => {
    const f = fault.current;
    if (f === null || f.op !== op || !f.match.test(String(path))) return null;
    if (f.after > 0) {
      f.after -= 1;
      return null;
    }
    fault.hits += 1;
    return f.code;
  };
  /** A file handle whose writes stop half-way (like a disk filling up) or whose fsync fails. */
  const wrap = (handle: FsPromises.FileHandle, path: string): FsPromises.FileHandle =>
    new Proxy(handle, {
      get(target, prop, receiver) {
        if (prop === 'writeFile') {
          return async (data: string | Buffer) => {
            const code = trip('write', path);
            if (code === null) return target.writeFile(data);
            const buf = Buffer.from(data);
            await target.write(buf.subarray(0, Math.floor(buf.length / 2)));
            throw errno(code, path);
          };
        }
        if (prop === 'sync') {
          return async () => {
            const code = trip('sync', path);
            if (code !== null) throw errno(code, path);
            return target.sync();
          };
        }
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return {
    ...real,
    open: async (path: Parameters<typeof real.open>[0], ...rest: unknown[]) => {
      const code = trip('open', path);
      if (code !== null) throw errno(code, String(path));
      return wrap(
        await (real.open as (...a: unknown[]) => Promise<FsPromises.FileHandle>)(path, ...rest),
        String(path),
      );
    },
    rename: async (from: string, to: string) => {
      const code = trip('rename', to);
      if (code !== null) throw errno(code, to);
      return real.rename(from, to);
    },
    copyFile: async (from: string, to: string) => {
      const code = trip('copyFile', to);
      if (code !== null) throw errno(code, to);
      return real.copyFile(from, to);
    },
    writeFile: async (path: Parameters<typeof real.writeFile>[0], ...rest: unknown[]) => {
      const code = trip('writeFile', path);
      if (code !== null) throw errno(code, String(path));
      return (real.writeFile as (...a: unknown[]) => Promise<void>)(path, ...rest);
    },
  };
});

// Patches stream from git to disk through fs.createWriteStream: a disk that fills up takes the first
// bytes of a chunk, then fails the write.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  const { Writable } = await import('node:stream');
  return {
    ...real,
    createWriteStream: (path: Fs.PathLike, options?: Parameters<typeof real.createWriteStream>[1]) => {
      const f = fault.current;
      if (f === null || f.op !== 'stream' || !f.match.test(String(path)))
        return real.createWriteStream(path, options);
      fault.hits += 1;
      const code = f.code;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          real.appendFileSync(path, chunk.subarray(0, Math.floor(chunk.length / 2)));
          callback(Object.assign(new Error(`injected ${code}: ${String(path)}`), { code }));
        },
      });
      return Object.assign(sink, { bytesWritten: 0 });
    },
  };
});

const { Snapshotter } = await import('../../src/snapshotter/snapshotter.js');
const { Checkpoints } = await import('../../src/checkpoints/index.js');

function inject(op: Op, match: RegExp, code: string, after = 0): void {
  fault.current = { op, match, code, after };
  fault.hits = 0;
}

let home: string;
let ws: string;
let snapshotter: InstanceType<typeof Snapshotter>;
const handled: string[] = [];

beforeEach(() => {
  home = tempDir('agentgate-wf-home-');
  ws = repoWithCommit({ 'a.txt': 'one\n' });
  snapshotter = new Snapshotter({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
    onDirty: 'wip-commit',
  });
});
afterEach(() => {
  fault.current = null;
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return String((error as { code?: string }).code);
  }
}

/** Runs `call` under the fault and checks the outcome: WRITE_FAILED, every file of the home unchanged and none added, no temp files. */
async function failsCleanly(name: string, call: () => Promise<unknown>): Promise<void> {
  const before = treeDigest(home, { dirs: false });
  expect(await codeOf(call()), name).toBe('WRITE_FAILED');
  expect(fault.hits, `${name}: the fault was reached`).toBeGreaterThan(0);
  fault.current = null;
  expect(treeDigest(home, { dirs: false }), `${name}: the home's files are unchanged`).toBe(before);
  expect(leftoverTemps(home), `${name}: no temporary files`).toEqual([]);
  handled.push(name);
}

/** One completed iteration, so that there are previous files to keep intact. */
async function firstIteration(): Promise<void> {
  await snapshotter.captureBeforeState(ws, { runId: 'r1' });
  writeFiles(ws, { 'a.txt': 'two\n', 'b.txt': 'bee\n' });
  await snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 1, taskPrompt: 'first' });
}

describe('write failures in the run snapshot store', () => {
  it('ENOSPC half-way through a run record write: WRITE_FAILED, the previous record intact', async () => {
    await firstIteration();
    inject('write', /runs\/\.r1\.json\..*\.tmp$/, 'ENOSPC');
    await failsCleanly('run record ENOSPC (partial write)', () =>
      snapshotter.captureBeforeState(ws, { runId: 'r1' }),
    );
    await snapshotter.captureBeforeState(ws, { runId: 'r1' });
  });

  it('EIO on fsync of a snapshot file: WRITE_FAILED, nothing stored, the retry stores it', async () => {
    await firstIteration();
    await snapshotter.captureBeforeState(ws, { runId: 'r1' });
    writeFiles(ws, { 'c.txt': 'sea\n' });
    inject('sync', /snapshots\/\.snap-.*\.tmp$/, 'EIO');
    const before = treeDigest(join(home, 'snapshots'));
    const runBefore = readFileSync(join(home, 'runs', 'r1.json'), 'utf8');
    expect(await codeOf(snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 2 }))).toBe(
      'WRITE_FAILED',
    );
    fault.current = null;
    expect(treeDigest(join(home, 'snapshots'))).toBe(before);
    expect(readFileSync(join(home, 'runs', 'r1.json'), 'utf8')).toBe(runBefore);
    expect(leftoverTemps(home)).toEqual([]);
    handled.push('snapshot EIO on fsync');
    const retried = await snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 2 });
    expect(retried.filesChanged).toBe(1);
    expect((await snapshotter.verify({ all: true })).ok).toBe(true);
  });

  it('ENOSPC on the rename of a snapshot file and EACCES on a lock file: WRITE_FAILED', async () => {
    await firstIteration();
    await snapshotter.captureBeforeState(ws, { runId: 'r1' });
    writeFiles(ws, { 'd.txt': 'dee\n' });
    inject('rename', /snapshots\/snap-[^/]*\.json$/, 'ENOSPC');
    expect(await codeOf(snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 2 }))).toBe(
      'WRITE_FAILED',
    );
    expect(leftoverTemps(home)).toEqual([]);
    handled.push('snapshot ENOSPC on rename');
    inject('writeFile', /locks\/run-r1\.lock\..*\.tmp$/, 'EACCES');
    await failsCleanly('run lock EACCES', () => snapshotter.captureBeforeState(ws, { runId: 'r1' }));
    expect(existsSync(join(home, 'locks', 'run-r1.lock'))).toBe(false);
  });
});

describe('write failures in the patch artifacts', () => {
  it('ENOSPC half-way through a patch artifact: WRITE_FAILED, earlier artifacts intact, nothing stored', async () => {
    await firstIteration();
    const first = readFileSync(join(home, 'artifacts', 'r1', 'iteration-1', 'patch.diff'));
    await snapshotter.captureBeforeState(ws, { runId: 'r1' });
    writeFiles(ws, { 'e.txt': 'e\n'.repeat(100) });
    inject('stream', /artifacts\/r1\/iteration-2\/\.patch\.diff\..*\.tmp$/, 'ENOSPC');
    await failsCleanly('patch artifact ENOSPC (partial write)', () =>
      snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 2 }),
    );
    expect(readFileSync(join(home, 'artifacts', 'r1', 'iteration-1', 'patch.diff')).equals(first)).toBe(true);
    const retried = await snapshotter.captureAfterState(ws, null, { runId: 'r1', iteration: 2 });
    expect(retried.patchPath).not.toBeNull();
    expect((await snapshotter.verify({ all: true })).ok).toBe(true);
  });

  it('EACCES replacing an existing patch file (patch -o): WRITE_FAILED, the old file intact', async () => {
    await firstIteration();
    const [snapshot] = await snapshotter.listByRun('r1');
    const out = join(tempDir('agentgate-wf-out-'), 'mine.diff');
    writeFileSync(out, 'previous content\n');
    inject('rename', /mine\.diff$/, 'EACCES');
    expect(await codeOf(snapshotter.generatePatch(snapshot!, out))).toBe('WRITE_FAILED');
    fault.current = null;
    expect(readFileSync(out, 'utf8')).toBe('previous content\n');
    expect(leftoverTemps(join(out, '..'))).toEqual([]);
    handled.push('patch -o EACCES on rename');
    // With the artifact gone, the patch is regenerated from git: same fault, same guarantees.
    writeFileSync(snapshot!.patchPath!, 'tampered\n');
    inject('stream', /\.mine\.diff\..*\.tmp$/, 'ENOSPC');
    expect(await codeOf(snapshotter.generatePatch(snapshot!, out))).toBe('WRITE_FAILED');
    fault.current = null;
    expect(readFileSync(out, 'utf8')).toBe('previous content\n');
    expect(leftoverTemps(join(out, '..'))).toEqual([]);
    handled.push('regenerated patch ENOSPC (partial write)');
  });
});

describe('write failures in the checkpoint store', () => {
  it('ENOSPC on store.json and on the lock: WRITE_FAILED, and the next track works', async () => {
    const open = () => Checkpoints.open(ws, { home, lockTimeoutMs: 10_000 });
    inject('write', /store\.json\..*\.tmp$/, 'ENOSPC');
    expect(await codeOf((await open()).track('first'))).toBe('WRITE_FAILED');
    fault.current = null;
    expect(leftoverTemps(home)).toEqual([]);
    handled.push('checkpoint store.json ENOSPC');
    const first = await (await open()).track('first');
    writeFiles(ws, { 'a.txt': 'changed\n' });
    inject('writeFile', /checkpoints\/.*\/lock\..*\.tmp$/, 'ENOSPC');
    await failsCleanly('checkpoint lock ENOSPC', async () => (await open()).track('second'));
    const second = await (await open()).track('second');
    expect(second.hash).not.toBe(first.hash);

    // A restore whose second file cannot be put in place: WRITE_FAILED, every file whole (one
    // restored, the others as they were), and the retry finishes the job.
    writeFiles(ws, { 'a.txt': 'A2\n', 'b.txt': 'B2\n', 'c.txt': 'C2\n' });
    const third = await (await open()).track('third');
    writeFiles(ws, { 'a.txt': 'A3\n', 'b.txt': 'B3\n', 'c.txt': 'C3\n' });
    const wsPath = ws.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    inject('rename', new RegExp(`^${wsPath}/`), 'ENOSPC', 1);
    expect(await codeOf((await open()).restore(third.hash))).toBe('WRITE_FAILED');
    fault.current = null;
    const contents = ['a.txt', 'b.txt', 'c.txt'].map((n) => readFileSync(join(ws, n), 'utf8'));
    expect(contents.every((c) => /^[ABC][23]\n$/.test(c))).toBe(true);
    expect(contents.filter((c) => c.includes('2')).length).toBe(1);
    handled.push('checkpoint restore ENOSPC on the second file');
    await (await open()).restore(third.hash);
    expect(['a.txt', 'b.txt', 'c.txt'].map((n) => readFileSync(join(ws, n), 'utf8'))).toEqual([
      'A2\n',
      'B2\n',
      'C2\n',
    ]);
    report('write-failures', { layer: 'library', faults: handled.length, cases: handled });
  });
});
