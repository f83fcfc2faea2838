import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The header of a bundle this size or longer is not ours (one line per ref, about 100 bytes each). */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;

/**
 * Whether a bundle's pack is whole. `git bundle verify` reads only the header (refs and
 * prerequisites), so a truncated or overwritten pack passes it, and `import` with nothing new to
 * fetch would never read the pack at all. A pack ends with the hash of every byte before it (SHA-1,
 * or SHA-256 when the header says `@object-format=sha256`): recomputing it reads the file once, in
 * constant memory beyond the header.
 */
export async function bundlePackIntact(file: string): Promise<boolean> {
  let header: Buffer | null = Buffer.alloc(0);
  let hash: ReturnType<typeof createHash> | null = null;
  let trailerBytes = 20;
  let tail = Buffer.alloc(0);
  let packBytes = 0;
  let magic = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    let data = chunk as Buffer;
    if (header !== null) {
      header = Buffer.concat([header, data]);
      const end = header.indexOf('\n\n');
      if (end === -1) {
        if (header.length > MAX_HEADER_BYTES) return false;
        continue;
      }
      const text = header.subarray(0, end + 1).toString('latin1');
      if (/^@object-format=sha256$/m.test(text)) trailerBytes = 32;
      hash = createHash(trailerBytes === 32 ? 'sha256' : 'sha1');
      data = header.subarray(end + 2);
      header = null;
    }
    if (magic.length < 4) magic = Buffer.concat([magic, data.subarray(0, 4 - magic.length)]);
    // Everything but the last `trailerBytes` bytes seen so far is hashed; those stay in `tail`.
    const joined = Buffer.concat([tail, data]);
    const cut = Math.max(0, joined.length - trailerBytes);
    hash?.update(joined.subarray(0, cut));
    tail = joined.subarray(cut);
    packBytes += data.length;
  }
  if (hash === null || packBytes < 12 + trailerBytes || magic.toString('latin1') !== 'PACK') return false;
  return hash.digest().equals(tail);
}
