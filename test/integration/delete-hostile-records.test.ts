/**
 * `delete` of a snapshot whose record was edited (a tampered or copied store) to name another file
 * as its patch artifact, with that file's sha256: `delete` removed that file, wherever it was (a file
 * of the user's outside the home), and its directory when that was left empty. Only a file where
 * an artifact of that run and iteration lies (`<dir>/<runId>/iteration-<n>/patch.diff`) is removed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedCliRun } from '../helpers/cli.js';
import { remove, tempDir } from '../helpers/repo.js';

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
});
