/**
 * Issue 11 items 13, 14, 16, 17, 18, 12b, 24 and 25 for checkpoints: odd files (built by
 * fixtures/make-odd-workspace.sh), path errors before anything changes, durability, temp sweeping.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLACE_TEMP_NAME } from '../../src/fs/place.js';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { CLI, runCli } from '../helpers/cli.js';
import { codeOf } from '../helpers/codes.js';
import { gitRaw, oracleEnv, tempDir, writeFiles } from '../helpers/repo.js';

const FIXTURE = join(import.meta.dirname, '../../fixtures/make-odd-workspace.sh');
const odd = (dir: string, ...kinds: string[]): void => {
  execFileSync('bash', [FIXTURE, dir, ...kinds], { env: oracleEnv() });
};
/** The non-UTF-8 name of the `names` fixture, as bytes and as the library spells it (PEP 383 escapes). */
const LATIN1_NAME = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2d, 0xff, 0xfe, 0x2e, 0x74, 0x78, 0x74]);
const LATIN1_ESCAPED = 'caf\udce9-\udcff\udcfe.txt';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('checkpoints: file names that are not UTF-8 (issue 11 item 13)', () => {
  it('are captured, listed losslessly and restored with their exact bytes', async () => {
    const ws = tempDir('agentgate-cp-names-');
    odd(ws, 'names');
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t1 = await cp.track('names');
    const names = gitRaw(ws, [
      `--git-dir=${cp.location.gitDir}`,
      'ls-tree',
      '-r',
      '-z',
      '--name-only',
      t1.hash,
    ])
      .toString('latin1')
      .split('\0')
      .filter(Boolean);
    expect(names).toContain(LATIN1_NAME.toString('latin1'));
    expect(names).toContain(Buffer.from('café.txt').toString('latin1'));

    rmSync(Buffer.concat([Buffer.from(`${ws}/`), LATIN1_NAME]));
    const patch = await cp.patch(t1.hash);
    expect(patch.files).toEqual([join(ws, LATIN1_ESCAPED)]);
    expect(JSON.stringify(patch)).toContain('caf\\udce9-\\udcff\\udcfe.txt');

    await cp.restore(t1.hash);
    const onDisk = readdirSync(Buffer.from(ws), { encoding: 'buffer' });
    expect(onDisk.some((n) => n.equals(LATIN1_NAME))).toBe(true);
    expect(readFileSync(Buffer.concat([Buffer.from(`${ws}/`), LATIN1_NAME]), 'utf8')).toBe('latin-1 name\n');
  });
});

describe('checkpoints: entries git cannot stage (issue 11 item 14)', () => {
  it('a FIFO and a socket are skipped with a reason; track, restore and revert work for the rest', async () => {
    const ws = tempDir('agentgate-cp-special-');
    writeFiles(ws, { fifo: 'was a file\n', sock: 'was a file\n' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t0 = await cp.track('plain files');
    odd(ws, 'special');
    const t1 = await cp.track('special');
    expect(t1.skipped).toEqual([
      { path: join(ws, 'fifo'), reason: 'unreadable', size: null },
      { path: join(ws, 'sock'), reason: 'unreadable', size: null },
    ]);
    writeFiles(ws, { 'ordinary.txt': 'changed\n' });
    const reverted = await cp.revert(t1.hash);
    expect(reverted.reverted).toEqual([join(ws, 'ordinary.txt')]);
    expect(readFileSync(join(ws, 'ordinary.txt'), 'utf8')).toBe('ordinary\n');
    writeFiles(ws, { 'ordinary.txt': 'again\n' });
    await cp.restore(t1.hash);
    expect(readFileSync(join(ws, 'ordinary.txt'), 'utf8')).toBe('ordinary\n');
    expect(lstatSync(join(ws, 'fifo')).isFIFO()).toBe(true);
    expect(lstatSync(join(ws, 'sock')).isSocket()).toBe(true);
    // Going back to the plain files never overwrites what the safety checkpoint could not capture.
    const back = await cp.restore(t0.hash);
    expect(back.leftAlone).toEqual([join(ws, 'fifo'), join(ws, 'sock')]);
    expect(existsSync(join(ws, 'ordinary.txt'))).toBe(false);
  });
  // A file without read permission is the third variant of the issue; these tests run as root,
  // which reads any file whatever its mode, so it cannot be built here. The same code path
  // (access(R_OK) before staging) reports it as `unreadable`.
});

describe('checkpoints: a `.git` in a subdirectory that is no regular file', () => {
  it('a FIFO or a link to /dev/zero there is not read: track, restore and an agent hook there finish', () => {
    const ws = tempDir('agentgate-cp-dotgit-fifo-');
    const home = tempDir('agentgate-cp-home-');
    writeFiles(ws, { 'sub/x.txt': 'x1\n', 'sub2/z.txt': 'z1\n' });
    const env = { AGENTGATE_HOME: home };
    // A child process with a bound, so that a read that waits for a writer fails the test instead of hanging it.
    const cli = (args: string[], input?: string) =>
      spawnSync(process.execPath, [CLI, ...args], {
        env: { ...process.env, ...env },
        input,
        timeout: 120_000,
      });
    const first = cli(['checkpoint', 'track', '--json', '-C', ws]);
    expect(first.status).toBe(0);
    const t = (JSON.parse(first.stdout.toString()) as { hash: string }).hash;
    execFileSync('mkfifo', [join(ws, 'sub/.git')]);
    symlinkSync('/dev/zero', join(ws, 'sub2/.git'));
    writeFiles(ws, { 'sub/x.txt': 'x2\n', 'sub2/z.txt': 'z2\n' });

    expect(cli(['checkpoint', 'track', '--json', '-C', ws]).status).toBe(0);
    expect(cli(['checkpoint', 'restore', t, '--json', '-C', ws]).status).toBe(0);
    expect([
      readFileSync(join(ws, 'sub/x.txt'), 'utf8'),
      readFileSync(join(ws, 'sub2/z.txt'), 'utf8'),
    ]).toEqual(['x1\n', 'z1\n']);
    const event = JSON.stringify({ session_id: 's1', cwd: join(ws, 'sub'), hook_event_name: 'Stop' });
    expect(cli(['hook', 'claude-code'], event).status).toBe(0);
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(/ recorded: /);
  });
});

describe('checkpoints: paths near PATH_MAX (issue 11 item 16)', () => {
  it('restore writes a file whose absolute path is within 100 bytes of 4096', async () => {
    const ws = tempDir('agentgate-cp-long-');
    odd(ws, 'long');
    const rel = readFileSync(join(ws, '.long-path'), 'utf8').trim();
    expect(join(ws, rel).length).toBeGreaterThan(3990);
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t1 = await cp.track('long');
    writeFileSync(join(ws, rel), 'changed\n');
    await cp.restore(t1.hash);
    expect(readFileSync(join(ws, rel), 'utf8')).toBe('deep\n');
    rmSync(join(ws, rel));
    const r = await cp.revert(t1.hash, [rel]);
    expect(r.reverted).toEqual([join(ws, rel)]);
    expect(readFileSync(join(ws, rel), 'utf8')).toBe('deep\n');
  });
});

describe('checkpoint diff is byte-exact (issue 11 item 17)', () => {
  it('applies with git apply and reproduces invalid UTF-8 and binary bytes', async () => {
    const ws = tempDir('agentgate-cp-bytes-');
    writeFiles(ws, { 'latin1.txt': 'old\n', 'blob.bin': 'old\n', 'keep.txt': 'same\n' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t1 = await cp.track('before');
    const copy = tempDir('agentgate-cp-bytes-copy-');
    cpSync(ws, copy, { recursive: true });
    odd(ws, 'bytes');
    const patch = await cp.diffBytes(t1.hash);
    execFileSync('git', ['apply', '--binary', '-'], { cwd: copy, input: patch, env: oracleEnv() });
    for (const name of ['latin1.txt', 'blob.bin', 'keep.txt'])
      expect(readFileSync(join(copy, name)).equals(readFileSync(join(ws, name)))).toBe(true);
    // The string form is lossless too: invalid bytes are escaped, not replaced; diff-full's contents as well.
    expect(await cp.diff(t1.hash)).not.toContain('\ufffd');
    const full = (await cp.diffFull(t1.hash)).find((f) => f.file === 'latin1.txt');
    expect(full?.after).not.toContain('\ufffd');
    expect(full?.after).toMatch(/[\udc80-\udcff]/);
  });

  it('the CLI streams the same bytes', async () => {
    const ws = tempDir('agentgate-cp-bytes-cli-');
    writeFiles(ws, { 'latin1.txt': 'old\n' });
    const home = tempDir('agentgate-cp-bytes-home-');
    const t1 = runCli(['checkpoint', 'track', '--json', '-C', ws, '--home', home]).json() as { hash: string };
    odd(ws, 'bytes');
    const out = execFileSync(
      process.execPath,
      [
        join(import.meta.dirname, '../../dist/src/cli/main.js'),
        'checkpoint',
        'diff',
        t1.hash,
        '-C',
        ws,
        '--home',
        home,
      ],
      {
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    const cp = await openCheckpoints(ws, { home });
    expect(out.equals(await cp.diffBytes(t1.hash))).toBe(true);
  });
});

describe('checkpoint revert: paths that name nothing (issue 11 items 18 and 12b)', () => {
  it('an empty path is a usage error, from the CLI and the library, and nothing changes', async () => {
    const ws = tempDir('agentgate-cp-empty-');
    writeFiles(ws, { 'a.txt': 'v1\n' });
    const home = tempDir('agentgate-cp-empty-home-');
    const cp = await openCheckpoints(ws, { home });
    const t1 = await cp.track('one');
    writeFiles(ws, { 'a.txt': 'v2\n' });
    const res = runCli(['checkpoint', 'revert', t1.hash, '', '--json', '-C', ws, '--home', home]);
    expect(res.status).toBe(2);
    expect((res.json() as { error: { code: string } }).error.code).toBe('USAGE');
    expect(await codeOf(cp.revert(t1.hash, ['']))).toBe('INVALID_ARGUMENT');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('v2\n');
    expect((await cp.list()).length).toBe(1);
  });

  it('a path unknown to the checkpoint and the workspace is PATH_NOT_FOUND before any safety checkpoint', async () => {
    const ws = tempDir('agentgate-cp-nopath-');
    writeFiles(ws, { 'a.txt': 'v1\n', 'gone.txt': 'x\n' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t1 = await cp.track('one');
    rmSync(join(ws, 'gone.txt'));
    writeFiles(ws, { 'a.txt': 'v2\n', 'new.txt': 'n\n' });
    expect(await codeOf(cp.revert(t1.hash, ['no-such-path']))).toBe('PATH_NOT_FOUND');
    expect((await cp.list()).length).toBe(1);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('v2\n');
    // Known to the checkpoint only (deleted since) or to the workspace only (created since): fine.
    const r = await cp.revert(t1.hash, ['gone.txt', 'new.txt']);
    expect(r.reverted).toEqual([join(ws, 'gone.txt')]);
    expect(r.deleted).toEqual([join(ws, 'new.txt')]);
  });
});

describe('checkpoints: durability and leftovers (issue 11 items 24 and 25)', () => {
  it('restored and reverted files and their directories are fsynced before success is reported', async () => {
    const ws = tempDir('agentgate-cp-fsync-');
    writeFiles(ws, { 'a.txt': 'v1\n', 'dir/b.txt': 'v1\n' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    const t1 = await cp.track('one');
    writeFiles(ws, { 'a.txt': 'v2\n', 'dir/b.txt': 'v2\n' });
    const probe = await open(join(ws, 'a.txt'), 'r');
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const synced: number[] = [];
    const sync = vi.spyOn(proto, 'sync').mockImplementation(async function (this: { fd: number }) {
      synced.push(this.fd);
    });
    await cp.restore(t1.hash);
    // Two files and two directories (the root and dir/) at least, besides the store's own writes.
    expect(synced.length).toBeGreaterThanOrEqual(4);
    sync.mockClear();
    synced.length = 0;
    writeFiles(ws, { 'dir/b.txt': 'v3\n' });
    await cp.revert(t1.hash, ['dir']);
    expect(synced.length).toBeGreaterThanOrEqual(2);
  });

  it("a killed process's temp files are swept when the store is next locked; a live owner's are kept", async () => {
    const ws = tempDir('agentgate-cp-sweep-');
    writeFiles(ws, { 'a.txt': 'v1\n' });
    const cp = await openCheckpoints(ws, { home: tempDir('agentgate-cp-home-') });
    await cp.track('one');
    const dead = 2 ** 22 + 12345; // above the kernel's pid_max default: no such process
    const live = process.ppid;
    const storeDir = cp.location.dir;
    mkdirSync(cp.location.tempDir, { recursive: true });
    const leftovers = [
      join(ws, `.agentgate-${dead}-0123456789ab.tmp`),
      join(cp.location.tempDir, `.agentgate-${dead}-0123456789ab.tmp`),
      join(storeDir, `.store.json.${dead}.0123456789ab.tmp`),
    ];
    const kept = [join(ws, `.agentgate-${live}-0123456789ab.tmp`), join(ws, '.agentgate-notours.tmp')];
    for (const p of [...leftovers, ...kept]) writeFileSync(p, 'junk');
    expect(PLACE_TEMP_NAME.test(`.agentgate-${dead}-0123456789ab.tmp`)).toBe(true);
    await cp.track('two');
    for (const p of leftovers) expect(existsSync(p)).toBe(false);
    for (const p of kept) expect(existsSync(p)).toBe(true);
  });
});
