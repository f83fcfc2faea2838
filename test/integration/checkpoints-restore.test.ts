import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RestoreResult } from '../../types/checkpoint.js';
import { openCheckpoints, treeState } from '../helpers/checkpoints.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('checkpoint restore', () => {
  it('brings back every captured path, leaves ignored and skipped files alone, and can be undone', async () => {
    const ws = repoWithCommit({ '.gitignore': 'build/\n', 'keep.txt': 'keep\n' });
    writeFiles(ws, {
      'src/a.ts': 'a1\n',
      'src/deep/b.ts': 'b1\n',
      'sp ace é.txt': 'spaces\n',
      'bin.dat': Buffer.from([0, 1, 2, 255]),
      'run.sh': '#!/bin/sh\necho hi\n',
      'build/artifact.js': 'built v1\n',
      'grows.log': 'short\n',
    });
    chmodSync(join(ws, 'run.sh'), 0o755);
    symlinkSync('keep.txt', join(ws, 'link'));
    const cp = await openCheckpoints(ws, { maxFileSizeBytes: 1024 });
    const base = await cp.track('base');
    const original = treeState(ws, ['build']);

    writeFiles(ws, {
      'src/a.ts': 'a2\n',
      'new.txt': 'new\n',
      'newdir/x/y.txt': 'deep new\n',
      'bin.dat': Buffer.from([9]),
      'build/artifact.js': 'built v2\n',
    });
    unlinkSync(join(ws, 'keep.txt'));
    rmSync(join(ws, 'src/deep'), { recursive: true });
    renameSync(join(ws, 'sp ace é.txt'), join(ws, 'renamed.txt'));
    unlinkSync(join(ws, 'link'));
    symlinkSync('src/a.ts', join(ws, 'link'));
    chmodSync(join(ws, 'run.sh'), 0o644);
    writeFileSync(join(ws, 'huge.bin'), Buffer.alloc(4096, 3));
    writeFileSync(join(ws, 'grows.log'), Buffer.alloc(2048, 4));
    const mutated = treeState(ws);

    const r = await cp.restore(base.hash);
    expect(RestoreResult.parse(r)).toEqual(r);
    expect(r.hash).toBe(base.hash);
    const originalRest = Object.fromEntries(Object.entries(original).filter(([p]) => p !== 'grows.log'));
    expect(treeState(ws, ['build', 'huge.bin', 'grows.log'])).toEqual(originalRest);
    expect(existsSync(join(ws, 'newdir'))).toBe(false); // directories emptied by the restore are removed
    expect(readFileSync(join(ws, 'build/artifact.js'), 'utf8')).toBe('built v2\n'); // ignored: untouched
    expect(readFileSync(join(ws, 'huge.bin')).length).toBe(4096); // over the cap: untouched
    expect(readFileSync(join(ws, 'grows.log')).length).toBe(2048); // grew over the cap: not rolled back
    expect(r.leftAlone).toEqual([join(ws, 'grows.log')]);

    // The safety checkpoint undoes the restore.
    const undo = await cp.unrevert(r.safety);
    expect(undo.hash).toBe(r.safety);
    expect(treeState(ws)).toEqual(mutated);
    expect((await cp.list()).filter((e) => e.kind === 'safety').length).toBe(2);
  });

  it('is byte-exact whatever .gitattributes say, and the repository config cannot make it run programs', async () => {
    const ws = repoWithCommit({ '.gitattributes': '* text eol=crlf\n*.dat filter=evil diff=evil\n' });
    const marker = join(tempDir('agentgate-cp-marker-'), 'ran');
    for (const [key, value] of [
      ['core.fsmonitor', `touch ${marker}`],
      ['filter.evil.clean', `touch ${marker}`],
      ['filter.evil.smudge', `touch ${marker}`],
      ['diff.evil.textconv', `touch ${marker}`],
    ] as const) {
      git(ws, ['config', key, value]);
    }
    const mixed = Buffer.from('lf\ncrlf\r\nlone cr\r');
    writeFiles(ws, { 'mixed.txt': mixed, 'data.dat': 'payload\n' });
    const cp = await openCheckpoints(ws);
    const t = await cp.track();
    writeFiles(ws, { 'mixed.txt': 'changed\n', 'data.dat': 'changed\n' });
    await cp.diffFull(t.hash);
    await cp.diff(t.hash);
    await cp.restore(t.hash);
    expect(readFileSync(join(ws, 'mixed.txt')).equals(mixed)).toBe(true);
    expect(readFileSync(join(ws, 'data.dat'), 'utf8')).toBe('payload\n');
    expect(existsSync(marker)).toBe(false);
  });

  it('never writes through a symbolic link that leads outside the workspace', async () => {
    const outside = tempDir('agentgate-cp-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    const ws = tempDir('agentgate-cp-links-');
    writeFiles(ws, {
      'config.txt': 'original\n',
      'dir/f.txt': 'inner\n',
      'cache/g.txt': 'cached\n',
      '.gitignore': '# none yet\n',
    });
    const cp = await openCheckpoints(ws);
    const t = await cp.track();

    // A file and a directory replaced by links to the outside, and an ignored link in the way.
    unlinkSync(join(ws, 'config.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'config.txt'));
    rmSync(join(ws, 'dir'), { recursive: true });
    symlinkSync(outside, join(ws, 'dir'));
    rmSync(join(ws, 'cache'), { recursive: true });
    symlinkSync(outside, join(ws, 'cache'));
    writeFileSync(join(ws, '.gitignore'), 'cache\n');

    const r = await cp.restore(t.hash);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(lstatSync(join(ws, 'config.txt')).isFile()).toBe(true);
    expect(readFileSync(join(ws, 'config.txt'), 'utf8')).toBe('original\n');
    expect(lstatSync(join(ws, 'dir')).isDirectory()).toBe(true);
    expect(readFileSync(join(ws, 'dir/f.txt'), 'utf8')).toBe('inner\n');
    // `cache` was ignored when the safety checkpoint was taken, so the link stays and nothing goes through it.
    expect(lstatSync(join(ws, 'cache')).isSymbolicLink()).toBe(true);
    expect(r.leftAlone).toContain(join(ws, 'cache/g.txt'));
  });

  it('leaves a directory that holds uncaptured files in place of a file it would restore', async () => {
    const ws = tempDir('agentgate-cp-obstacle-');
    writeFiles(ws, { out: 'was a file\n', '.gitignore': '*.tmp\n' });
    const cp = await openCheckpoints(ws);
    const t = await cp.track();
    unlinkSync(join(ws, 'out'));
    mkdirSync(join(ws, 'out'));
    writeFiles(ws, { 'out/captured.txt': 'c\n', 'out/ignored.tmp': 'precious\n' });

    const r = await cp.restore(t.hash);
    expect(readFileSync(join(ws, 'out/ignored.tmp'), 'utf8')).toBe('precious\n');
    expect(existsSync(join(ws, 'out/captured.txt'))).toBe(false);
    expect(r.leftAlone).toEqual([join(ws, 'out')]);
  });
});

describe('a captured directory that becomes a repository of its own', () => {
  it('leaves the capture as a nested repository does, and restore leaves it alone', async () => {
    const ws = repoWithCommit({ 'top.txt': 'top\n' });
    writeFiles(ws, { 'lib/a': 'v1\n' });
    const cp = await openCheckpoints(ws);
    const first = await cp.track('A');
    writeFiles(ws, { 'lib/a': 'v2\n', 'lib/b': 'new\n' });
    git(join(ws, 'lib'), ['init', '-q', '-b', 'main']);
    git(join(ws, 'lib'), ['add', '-A']);
    git(join(ws, 'lib'), ['commit', '-q', '-m', 'its own']);
    const second = await cp.track('B');
    expect(second.skipped).toEqual([{ path: join(ws, 'lib'), reason: 'nested-repository', size: null }]);
    expect((await cp.patch(first.hash)).files).toEqual([join(ws, 'lib/a')]);
    const r = RestoreResult.parse(await cp.restore(first.hash));
    expect(r.leftAlone).toContain(join(ws, 'lib/a'));
    expect(readFileSync(join(ws, 'lib/a'), 'utf8')).toBe('v2\n');
    expect(git(join(ws, 'lib'), ['status', '--porcelain'])).toBe('');
  });
});

describe('permission bits of a rewritten file', () => {
  it("restore and revert keep a file's own mode (0600 stays private), changing only the executable bit git records", async () => {
    const ws = tempDir('agentgate-cp-mode-');
    writeFiles(ws, { 'secret.env': 'token=1\n', 'tool.sh': 'echo 1\n', 'was-x.sh': 'echo x\n' });
    chmodSync(join(ws, 'secret.env'), 0o600);
    chmodSync(join(ws, 'tool.sh'), 0o700);
    const cp = await openCheckpoints(ws);
    const t = await cp.track('A');
    const mode = (p: string) => lstatSync(join(ws, p)).mode & 0o777;

    writeFiles(ws, { 'secret.env': 'token=2\n', 'tool.sh': 'echo 2\n' });
    chmodSync(join(ws, 'tool.sh'), 0o600);
    await cp.restore(t.hash);
    expect(readFileSync(join(ws, 'secret.env'), 'utf8')).toBe('token=1\n');
    expect(mode('secret.env')).toBe(0o600);
    // Executable in the checkpoint: x where the file is readable, nothing more.
    expect(mode('tool.sh')).toBe(0o700);

    writeFiles(ws, { 'secret.env': 'token=3\n', 'was-x.sh': 'echo y\n' });
    chmodSync(join(ws, 'was-x.sh'), 0o750);
    await cp.revert(t.hash);
    expect(mode('secret.env')).toBe(0o600);
    // Not executable in the checkpoint: the x bits go, the rest stays.
    expect(mode('was-x.sh')).toBe(0o640);
  });

  it('a rewritten file loses setuid, setgid and sticky (git records none of them; the content changed)', async () => {
    const ws = tempDir('agentgate-cp-suid-');
    writeFiles(ws, { 'suid.sh': 'echo 1\n', 'sgid.sh': 'echo 1\n', 'same.sh': 'echo s\n' });
    chmodSync(join(ws, 'same.sh'), 0o755);
    const cp = await openCheckpoints(ws);
    const t = await cp.track('A');
    chmodSync(join(ws, 'suid.sh'), 0o4755);
    chmodSync(join(ws, 'sgid.sh'), 0o2750);
    chmodSync(join(ws, 'same.sh'), 0o4755);
    writeFiles(ws, { 'suid.sh': 'echo 2\n', 'sgid.sh': 'echo 2\n' });
    const mode = (p: string) => lstatSync(join(ws, p)).mode & 0o7777;
    await cp.restore(t.hash);
    expect(readFileSync(join(ws, 'suid.sh'), 'utf8')).toBe('echo 1\n');
    // Not executable in the checkpoint: the x bits go too; the read and write bits stay.
    expect(mode('suid.sh')).toBe(0o644);
    expect(mode('sgid.sh')).toBe(0o640);
    // A file the restore does not rewrite keeps every bit it has.
    expect(mode('same.sh') & 0o4000).toBe(0o4000);
  });
  it('restores files larger together than one read batch byte for byte', async () => {
    const ws = tempDir('agentgate-cp-restore-large-');
    const mib = 1024 * 1024;
    // Three files of 30 MiB: more than WRITE_BATCH_BYTES together, so the blobs come in several reads.
    const files = Object.fromEntries(
      ['a', 'b', 'c'].map((name, i) => [`large/${name}.bin`, Buffer.alloc(30 * mib, i + 1)]),
    );
    writeFiles(ws, files);
    const cp = await openCheckpoints(ws, { maxFileSizeBytes: 64 * mib });
    const t = await cp.track();
    rmSync(join(ws, 'large'), { recursive: true });
    await cp.restore(t.hash);
    for (const [path, content] of Object.entries(files))
      expect(readFileSync(join(ws, path)).equals(content)).toBe(true);
  });
  it.each(['a file', 'a link'])(
    "puts back a directory's .gitignore where %s stands in place of the directory",
    async (what) => {
      const ws = tempDir('agentgate-cp-restore-rules-dir-');
      writeFiles(ws, { 'sub/.gitignore': '*.env\n', 'sub/x.txt': 'x\n', 'top.txt': 'top\n' });
      const cp = await openCheckpoints(ws);
      const t = await cp.track();
      const before = treeState(ws);
      rmSync(join(ws, 'sub'), { recursive: true });
      if (what === 'a file') writeFileSync(join(ws, 'sub'), 'a file now\n');
      else symlinkSync('top.txt', join(ws, 'sub'));
      const restored = await cp.restore(t.hash);
      expect(restored.leftAlone).toEqual([]);
      expect(treeState(ws)).toEqual(before);
    },
  );
});
