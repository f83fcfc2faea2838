/**
 * A checkpoint store that lost git objects (a pack removed or cut short, a loose object deleted):
 * track, and so every agent hook, goes on and never records a tree naming a lost object (the
 * index's entries that name one are staged again from the workspace: capture.ts
 * captureWithoutLost); a checkpoint that holds a lost object is STORE_CORRUPT to restore, and the
 * ways out that error names work.
 */
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Checkpoints } from '../../src/checkpoints/index.js';
import { fingerprint, openCheckpoints, sessionHooks } from '../helpers/checkpoints.js';
import { expectCode } from '../helpers/codes.js';
import { runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** The loose object file of `content` as a blob in the store of `cp`. */
function looseBlob(ws: string, cp: Checkpoints, content: string): string {
  const id = git(ws, ['hash-object', '--stdin'], { input: content });
  return join(cp.location.gitDir, 'objects', id.slice(0, 2), id.slice(2));
}

/** Whether every object the tree `rev` reaches is in the store of `cp`. */
function whole(ws: string, cp: Checkpoints, rev: string): boolean {
  try {
    git(ws, [`--git-dir=${cp.location.gitDir}`, 'rev-list', '--objects', '--quiet', rev], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

function read(ws: string, path: string): string {
  return readFileSync(join(ws, path), 'utf8');
}

describe('a checkpoint store that lost a pack', () => {
  it.each([
    ['removed', (pack: string) => rmSync(pack)],
    ['cut short', (pack: string) => (pack.endsWith('.pack') ? truncateSync(pack, 100) : undefined)],
  ])(
    'a pack %s: track sets the damage aside and records a checkpoint that restores; later tracks and agent hooks go on',
    async (_how, damage) => {
      const ws = repoWithCommit({ 'README.md': 'init\n' });
      const home = tempDir('agentgate-cp-lost-pack-');
      const env = { AGENTGATE_HOME: home };
      writeFiles(ws, { 'a.txt': 'alpha\n', 'd/b.txt': 'beta\n' });
      expect(runCli(['checkpoint', 'track', '--json', '-C', ws], { env }).status).toBe(0);
      expect(runCli(['checkpoint', 'gc', '--json', '-C', ws], { env }).status).toBe(0);
      const cp = await openCheckpoints(ws, { home });
      const packDir = join(cp.location.gitDir, 'objects', 'pack');
      for (const name of readdirSync(packDir)) damage(join(packDir, name));

      const track = runCli(['checkpoint', 'track', '--json', '-C', ws], { env });
      expect(track.status).toBe(0);
      const warnings = (JSON.parse(track.stderr) as { warnings: Array<{ code: string }> }).warnings;
      expect(warnings.map((w) => w.code)).toEqual(['STORE_RECOVERED']);
      const hash = (track.json() as { hash: string }).hash;
      expect(whole(ws, cp, hash)).toBe(true);

      expect(runCli(['checkpoint', 'track', '--json', '-C', ws], { env }).status).toBe(0);
      writeFiles(ws, { 'a.txt': 'changed\n' });
      const event = JSON.stringify({ session_id: 's1', cwd: ws, hook_event_name: 'Stop' });
      expect(runCli(['hook', 'claude-code'], { input: event, env }).status).toBe(0);
      expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(/ recorded: /);

      rmSync(join(ws, 'd'), { recursive: true });
      expect(runCli(['checkpoint', 'restore', hash, '--json', '-C', ws], { env }).status).toBe(0);
      expect([read(ws, 'a.txt'), read(ws, 'd/b.txt')]).toEqual(['alpha\n', 'beta\n']);
    },
  );
});

describe('a store that lost one loose object', () => {
  it('of an unchanged file (its directory cached by the index): the next track stages it again and records no tree naming a lost object', async () => {
    const ws = repoWithCommit({ 'README.md': 'init\n' });
    writeFiles(ws, { 'd/a.txt': 'alpha\n' });
    const cp = await openCheckpoints(ws);
    const a = await cp.track('A');
    rmSync(looseBlob(ws, cp, 'alpha\n'));

    writeFiles(ws, { 'b.txt': 'beta\n' });
    const b = await cp.track('B');
    expect(b.recovered).toBeDefined();
    expect(whole(ws, cp, b.hash)).toBe(true);
    // The file still held it: the older checkpoint is whole again.
    expect(whole(ws, cp, a.hash)).toBe(true);
    writeFiles(ws, { 'b.txt': 'gamma\n' });
    expect((await cp.track('C')).recovered).toBeUndefined();
    writeFiles(ws, { 'd/a.txt': 'changed\n' });
    await cp.restore(a.hash);
    expect(read(ws, 'd/a.txt')).toBe('alpha\n');
  });

  it('of a file changed since: restoring its checkpoint is STORE_CORRUPT, and the ways out the error names work', async () => {
    const ws = repoWithCommit({ 'README.md': 'init\n' });
    writeFiles(ws, { 'a.txt': 'one\n', 'b.txt': 'b1\n' });
    const cp = await openCheckpoints(ws);
    const a = await cp.track('A');
    writeFiles(ws, { 'a.txt': 'two\n', 'b.txt': 'b2\n' });
    const b = await cp.track('B');
    rmSync(looseBlob(ws, cp, 'one\n'));

    // The error names the file whose object is lost: the one to leave out of a revert.
    const failed = await cp.restore(a.hash).then(
      () => null,
      (error: unknown) => error as { code?: string; details?: { path?: unknown } },
    );
    expect([failed?.code, failed?.details?.path]).toEqual(['STORE_CORRUPT', 'a.txt']);
    await expectCode(cp.diffFull(a.hash), 'STORE_CORRUPT');
    await expectCode(cp.diff(a.hash), 'STORE_CORRUPT');
    expect([read(ws, 'a.txt'), read(ws, 'b.txt')]).toEqual(['two\n', 'b2\n']);
    // The files of that checkpoint that are whole, and any other checkpoint, still restore.
    await cp.revert(a.hash, [join(ws, 'b.txt')]);
    expect(read(ws, 'b.txt')).toBe('b1\n');
    await cp.restore(b.hash);
    expect([read(ws, 'a.txt'), read(ws, 'b.txt')]).toEqual(['two\n', 'b2\n']);
    // A track writes the object back once a file holds that content again.
    writeFiles(ws, { 'a.txt': 'one\n' });
    await cp.track('again');
    writeFiles(ws, { 'a.txt': 'three\n' });
    await cp.restore(a.hash);
    expect([read(ws, 'a.txt'), read(ws, 'b.txt')]).toEqual(['one\n', 'b1\n']);
  });
});

describe('a loose object left unreadable in place (a crash: "object file is empty")', () => {
  /** Empties or cuts short the object file of `content`, as a crash does: no directory's stamp changes. */
  function spoil(ws: string, cp: Checkpoints, content: string, keep: number): void {
    const file = looseBlob(ws, cp, content);
    chmodSync(file, 0o644);
    if (keep === 0) writeFileSync(file, '');
    else truncateSync(file, keep);
  }

  it('emptied: "checkpoint track" moves it aside and writes it again from the file; both checkpoints restore', async () => {
    const ws = repoWithCommit({ 'README.md': 'init\n' });
    const home = tempDir('agentgate-cp-empty-object-');
    const env = { AGENTGATE_HOME: home };
    writeFiles(ws, { 'd/a.txt': 'alpha\n' });
    const a = runCli(['checkpoint', 'track', '--json', '-C', ws], { env }).json() as { hash: string };
    const cp = await openCheckpoints(ws, { home });
    spoil(ws, cp, 'alpha\n', 0);

    writeFiles(ws, { 'b.txt': 'beta\n' });
    const track = runCli(['checkpoint', 'track', '--json', '-C', ws], { env });
    expect(track.status).toBe(0);
    const warnings = (JSON.parse(track.stderr) as { warnings: Array<{ code: string }> }).warnings;
    expect(warnings.map((w) => w.code)).toEqual(['STORE_RECOVERED']);
    const b = (track.json() as { hash: string }).hash;
    expect([whole(ws, cp, b), whole(ws, cp, a.hash)]).toEqual([true, true]);
    // The spoilt file went aside, not away.
    expect(readdirSync(cp.location.dir).filter((n) => n.startsWith('damaged-'))).toHaveLength(1);
    rmSync(join(ws, 'd'), { recursive: true });
    expect(runCli(['checkpoint', 'restore', b, '--json', '-C', ws], { env }).status).toBe(0);
    expect(read(ws, 'd/a.txt')).toBe('alpha\n');
  });

  it('cut short after its header: restoring its checkpoint is STORE_CORRUPT naming the file, not GIT_FAILED', async () => {
    const ws = repoWithCommit({ 'README.md': 'init\n' });
    const big = `${'x'.repeat(60_000)}\n`;
    writeFiles(ws, { 'a.txt': big });
    const cp = await openCheckpoints(ws);
    const a = await cp.track('A');
    spoil(ws, cp, big, 40);
    rmSync(join(ws, 'a.txt'));
    const failed = await cp.restore(a.hash).then(
      () => null,
      (error: unknown) => error as { code?: string; details?: { path?: unknown } },
    );
    expect([failed?.code, failed?.details?.path]).toEqual(['STORE_CORRUPT', 'a.txt']);
  });
});

describe('a restore that meets a lost object', () => {
  /** Removes, or cuts short after its header, the loose object file of `content`. */
  function lose(ws: string, cp: Checkpoints, content: string, how: 'removed' | 'cut short'): void {
    const file = looseBlob(ws, cp, content);
    if (how === 'removed') rmSync(file);
    else {
      chmodSync(file, 0o644);
      truncateSync(file, 40);
    }
  }

  it.each(['removed', 'cut short'] as const)(
    'an object %s: restore and revert are STORE_CORRUPT before deleting or writing any file',
    async (how) => {
      const ws = repoWithCommit({ 'README.md': 'init\n' });
      const big = `${'x'.repeat(60_000)}\n`;
      writeFiles(ws, { 'a.txt': big, 'b.txt': 'b1\n' });
      const cp = await openCheckpoints(ws);
      const a = await cp.track('A');
      rmSync(join(ws, 'a.txt'));
      writeFiles(ws, {
        'b.txt': 'b2\n',
        'new.txt': 'a file written since, in no checkpoint but the safety one\n',
      });
      lose(ws, cp, big, how);
      const before = fingerprint(ws);

      await expectCode(cp.restore(a.hash), 'STORE_CORRUPT');
      expect(fingerprint(ws)).toEqual(before);
      await expectCode(cp.revert(a.hash), 'STORE_CORRUPT');
      expect(fingerprint(ws)).toEqual(before);
      // The checkpoint's other files still revert.
      await cp.revert(a.hash, [join(ws, 'b.txt'), join(ws, 'new.txt')]);
      expect([read(ws, 'b.txt'), existsSync(join(ws, 'new.txt'))]).toEqual(['b1\n', false]);
    },
  );

  it('restore --prompt of a session is STORE_CORRUPT before deleting the files its session added', async () => {
    const ws = repoWithCommit({ 'README.md': 'init\n' });
    const big = `${'y'.repeat(60_000)}\n`;
    writeFiles(ws, { 'a.txt': big });
    const cp = await openCheckpoints(ws);
    const s = sessionHooks(cp, 's1');
    await s.start();
    await s.prompt();
    rmSync(join(ws, 'a.txt'));
    writeFiles(ws, { 'added.txt': 'the session added it\n' });
    await s.tool();
    lose(ws, cp, big, 'removed');
    const before = fingerprint(ws);
    await expectCode(cp.restorePrompt(1, 's1'), 'STORE_CORRUPT');
    expect(fingerprint(ws)).toEqual(before);
  });
});
