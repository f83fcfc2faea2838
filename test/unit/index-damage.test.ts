/** indexDamage (src/git/checkpoint-health.ts): an index file's header, length and checksum, from the file alone. */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexDamage } from '../../src/git/checkpoint-health.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

/** An index as git writes it: its body and the checksum of the body. */
function withChecksum(body: Buffer, algorithm: 'sha1' | 'sha256' = 'sha1'): Buffer {
  return Buffer.concat([body, createHash(algorithm).update(body).digest()]);
}

/** A header: "DIRC", `version`, no entries. */
function header(version = 2, signature = 'DIRC'): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.write(signature, 0, 'latin1');
  bytes.writeUInt32BE(version, 4);
  return bytes;
}

describe('indexDamage', () => {
  const dir = tempDir('agentgate-index-damage-');
  const file = join(dir, 'index');
  const damage = (bytes: Buffer | string) => {
    writeFileSync(file, bytes);
    return indexDamage(file);
  };

  it('finds nothing in an index git wrote, nor where there is none', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n', 'd/b.txt': 'b\n' });
    expect(await damage(readFileSync(join(ws, '.git', 'index')))).toBeNull();
    expect(await damage(withChecksum(header(), 'sha256'))).toBeNull();
    expect(await indexDamage(join(dir, 'none'))).toBeNull();
  });

  it('names an empty file, one cut short, a wrong signature or version, and a failed checksum', async () => {
    const whole = readFileSync(join(repoWithCommit({ 'a.txt': 'a\n' }), '.git', 'index'));
    expect(await damage('')).toMatch(/empty/);
    expect(await damage(whole.subarray(0, 20))).toMatch(/cut short/);
    expect(await damage(withChecksum(header(2, 'DIRX')))).toMatch(/does not start/);
    expect(await damage(withChecksum(header(9)))).toMatch(/does not start/);
    expect(await damage(whole.subarray(0, 40))).toMatch(/checksum/);
    expect(await damage(Buffer.concat([whole, Buffer.alloc(8)]))).toMatch(/checksum/);
  });
});
