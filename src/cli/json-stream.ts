import { createReadStream } from 'node:fs';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeBytes } from '../fs/path-bytes.js';

/**
 * A JSON document with one large string inside, written as it is read: `prefix` (the document up
 * to and including the string's opening quote), the bytes of `file` decoded losslessly (`decodeBytes`:
 * valid UTF-8 as itself, any other byte as `\udcNN`) and escaped as a JSON string body chunk by chunk,
 * then `suffix`. The output is byte-identical to JSON.stringify of the same document, but never holds
 * more than one chunk of the file in memory.
 */
export interface StreamedJson {
  prefix: string;
  file: string;
  suffix: string;
}

/**
 * A transform from raw bytes to the body of a JSON string (no quotes). The bytes are decoded as
 * `decodeBytes` does (a byte that is not valid UTF-8 becomes U+DC80 + the byte, written `\udcNN`),
 * so the string encodes back to the very bytes; a sequence cut by a chunk boundary waits for the
 * next chunk.
 */
function jsonStringBody(): Transform {
  let held: Buffer = Buffer.alloc(0);
  const escape = (bytes: Buffer): string =>
    bytes.length === 0 ? '' : JSON.stringify(decodeBytes(bytes)).slice(1, -1);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const bytes = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
      const cut = completeUpTo(bytes);
      held = Buffer.from(bytes.subarray(cut));
      done(null, escape(bytes.subarray(0, cut)));
    },
    flush(done) {
      done(null, escape(held));
    },
  });
}

/**
 * Where `bytes` may be cut without splitting a UTF-8 sequence that the next bytes could complete:
 * before a lead byte in the last three whose sequence is longer than what follows it (all
 * continuation bytes). A lead byte is never a continuation byte, so no sequence starting earlier
 * runs across the cut, and decoding the two parts apart gives what decoding them whole would.
 */
function completeUpTo(bytes: Buffer): number {
  for (let at = bytes.length - 1; at >= Math.max(0, bytes.length - 3); at--) {
    const byte = bytes[at] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > bytes.length - at ? at : bytes.length;
  }
  return bytes.length;
}

/** Writes the document to `out` without ending it (stdout stays open). */
export async function writeStreamedJson(doc: StreamedJson, out: Writable): Promise<void> {
  async function* parts(): AsyncGenerator<string | Buffer> {
    yield doc.prefix;
    yield* createReadStream(doc.file).pipe(jsonStringBody()) as AsyncIterable<string>;
    yield doc.suffix;
  }
  await pipeline(Readable.from(parts()), out, { end: false });
}
