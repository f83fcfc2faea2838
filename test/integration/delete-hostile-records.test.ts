/**
 * `delete` of a snapshot whose record was edited (a tampered or copied store) to name another file
 * as its patch artifact, with that file's sha256: `delete` removed that file, wherever it was (a file
 * of the user's outside the home), and its directory when that was left empty. Only a file where
 * an artifact of that run and iteration lies (`<dir>/<runId>/iteration-<n>/patch.diff`) is removed.
 * And `delete` of a second, unlinked snapshot of an iteration (a stray capture `verify --all` fails)
 * removed the artifact and the iteration ref of the capture its run links, when they were the same.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedCliRun } from '../helpers/cli.js';
import { git, remove, tempDir, writeFiles } from '../helpers/repo.js';

describe('delete of a record that names a foreign file as its artifact', () => {
  it('leaves that file, and still deletes the snapshot', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    const victim = tempDir('agentgate-victim-');
    try {
      const id = (JSON.parse(cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
      const precious = join(victim, 'notes', 'important.txt');
      mkdirSync(join(victim, 'notes'));
      writeFileSync(precious, 'precious\n');
      const file = join(home, 'snapshots', `${id}.json`);
      const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      rmSync(String(record.patchPath));
      record.patchPath = precious;
      record.patchSha256 = createHash('sha256').update(readFileSync(precious)).digest('hex');
      writeFileSync(file, JSON.stringify(record));

      const res = cli('delete', id, '--json');
      expect(res.status, res.stdout + res.stderr).toBe(0);
      expect(readFileSync(precious, 'utf8')).toBe('precious\n');
      expect(existsSync(file)).toBe(false);
    } finally {
      remove(dir);
      remove(home);
      remove(victim);
    }
  });

  it('still removes the artifact recorded under another artifacts directory', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    try {
      const listed = JSON.parse(cli('list', '--json').stdout) as Array<{ id: string; patchPath: string }>;
      const { id, patchPath } = listed[0] as { id: string; patchPath: string };
      expect(existsSync(patchPath)).toBe(true);
      // Deleted with another artifacts directory in use: the recorded artifact is still the one to go.
      const other = join(home, 'elsewhere');
      const res = cli('--artifacts-dir', other, 'delete', id, '--json');
      expect(res.status, res.stdout + res.stderr).toBe(0);
      expect(existsSync(patchPath)).toBe(false);
    } finally {
      remove(dir);
      remove(home);
    }
  });

  it('of a stray capture leaves the artifact and the ref of the capture the run links', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    try {
      const id = (JSON.parse(cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
      const record = JSON.parse(readFileSync(join(home, 'snapshots', `${id}.json`), 'utf8')) as {
        id: string;
        patchPath: string;
      };
      const stray = 'snap-stray0000000001';
      writeFileSync(join(home, 'snapshots', `${stray}.json`), JSON.stringify({ ...record, id: stray }));
      expect(cli('verify', '--all', '--json').status).toBe(3);

      const res = cli('delete', stray, '--json');
      expect(res.status, res.stdout + res.stderr).toBe(0);
      expect(existsSync(record.patchPath)).toBe(true);
      const verify = cli('verify', '--all', '--json');
      expect(verify.status, verify.stdout).toBe(0);
    } finally {
      remove(dir);
      remove(home);
    }
  });

  it('of a snapshot whose iteration ref is a FIFO deletes it at once, the FIFO with it', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    try {
      const id = (JSON.parse(cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
      const ref = join(dir, '.git', 'refs', 'agentgate', 'runs', 'r1', 'iteration-1');
      rmSync(ref);
      execFileSync('mkfifo', [ref]);
      const res = cli('delete', id, '--json');
      expect(res.status, res.stdout + res.stderr).toBe(0);
      expect(existsSync(ref)).toBe(false);
      const again = cli('delete', id, '--json');
      expect([again.status, (again.json() as { error: { code: string } }).error.code]).toEqual([
        1,
        'SNAPSHOT_NOT_FOUND',
      ]);
    } finally {
      remove(dir);
      remove(home);
    }
  });

  it('of a snapshot whose iteration ref is garbled removes it, so the iteration is captured again', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    try {
      const id = (JSON.parse(cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
      const ref = join(dir, '.git', 'refs', 'agentgate', 'runs', 'r1', 'iteration-1');
      writeFileSync(ref, 'garbage\n');
      expect(cli('delete', id, '--json').status).toBe(0);
      expect(existsSync(ref)).toBe(false);
      git(dir, ['reset', '-q', '--hard', 'HEAD~1']);
      expect(cli('before', '--run', 'r1', '--json').status).toBe(0);
      writeFiles(dir, { 'a.txt': 'two\n' });
      const after = cli('after', '--run', 'r1', '--iteration', '1', '--json');
      expect(after.status, after.stdout + after.stderr).toBe(0);
    } finally {
      remove(dir);
      remove(home);
    }
  });
});
