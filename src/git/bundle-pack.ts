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

/** The first line of a bundle, as git writes it. */
const SIGNATURE = /^# v[23] git bundle$/;
/** A capability (v3), a prerequisite with its optional comment (a commit subject, carriage returns and all), or a ref. */
const HEADER_LINE =
  /^(?:@[a-z][a-z0-9-]*(?:=[^\n]*)?|-[0-9a-f]{40}(?:[0-9a-f]{24})?(?: [^\n]*)?|[0-9a-f]{40}(?:[0-9a-f]{24})? [^ ]+)$/;
/** Longer than any ref name or commit subject git writes there. */
const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Why `file`'s header is not a git bundle header, or null when it is one. Read here before git
 * sees the file: git reads the header one byte at a time, so a file of zeros or a header line of a
 * GiB kept `git bundle verify` busy until the git timeout. Reads no further than the header.
 */
export async function bundleHeaderProblem(file: string): Promise<string | null> {
  let line: Buffer[] = [];
  let lineBytes = 0;
  let headerBytes = 0;
  let first = true;
  for await (const chunk of createReadStream(file)) {
    let data = chunk as Buffer;
    for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a)) {
      const text = Buffer.concat([...line, data.subarray(0, nl)]).toString('latin1');
      headerBytes += lineBytes + nl + 1;
      [line, lineBytes, data] = [[], 0, data.subarray(nl + 1)];
      if (first && !SIGNATURE.test(text))
        return 'it does not start with "# v2 git bundle" or "# v3 git bundle"';
      if (first) first = false;
      else if (text === '') return null;
      else if (!HEADER_LINE.test(text))
        return `its header holds a line git does not write: ${JSON.stringify(text.slice(0, 100))}`;
    }
    line.push(data);
    lineBytes += data.length;
    if (lineBytes > (first ? 16 : MAX_LINE_BYTES))
      return first
        ? 'it does not start with "# v2 git bundle" or "# v3 git bundle"'
        : `its header holds a line longer than ${MAX_LINE_BYTES} bytes`;
    if (headerBytes + lineBytes > MAX_HEADER_BYTES)
      return `its header is longer than ${MAX_HEADER_BYTES} bytes`;
  }
  return 'its header does not end (no blank line after its refs)';
}
