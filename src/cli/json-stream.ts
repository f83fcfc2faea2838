import { createReadStream } from 'node:fs';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeBytes } from '../fs/path-bytes.js';
import { jsonWithoutLegacyCommands } from '../text.js';

/**
 * A JSON document with one large string inside, written as it is read: `prefix` (the document up
 * to and including the string's opening quote), the bytes of `file` decoded losslessly (`decodeBytes`:
 * valid UTF-8 as itself, any other byte as `\udcNN`) and escaped as a JSON string body chunk by chunk,
 * then `suffix`. The output is byte-identical to JSON.stringify of the same document as
 * jsonWithoutLegacyCommands writes it (no `##[` a CI runner would obey), but never holds more than
 * one chunk of the file in memory.
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
    bytes.length === 0 ? '' : jsonWithoutLegacyCommands(JSON.stringify(decodeBytes(bytes)).slice(1, -1));
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const bytes = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
      let cut = completeUpTo(bytes);
      // A `#` or `##` at the end waits too: whether it starts a `##[` is in the next chunk.
      for (let n = 0; n < 2 && cut === bytes.length - n && bytes[cut - 1] === HASH; n++) cut -= 1;
      held = Buffer.from(bytes.subarray(cut));
      done(null, escape(bytes.subarray(0, cut)));
    },
    flush(done) {
      done(null, escape(held));
    },
  });
}

const HASH = 0x23;

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

/**
 * Writes the document to `out` without ending it (stdout stays open), waiting where `out` asks
 * (backpressure) and for the last write, which settles with the stream's error if it had one.
 * `pipeline(..., out, { end: false })` left four listeners on `out` per document, which a
 * long-lived `serve` answering patch after patch piled up (MaxListenersExceededWarning after ten).
 */
export async function writeStreamedJson(doc: StreamedJson, out: Writable): Promise<void> {
  await writeTo(out, jsonWithoutLegacyCommands(doc.prefix));
  await pipeline(createReadStream(doc.file), jsonStringBody(), async (body: AsyncIterable<Buffer>) => {
    for await (const part of body) await writeTo(out, part);
  });
  await writeTo(out, jsonWithoutLegacyCommands(doc.suffix), true);
}

/**
 * One write to `out`, adding no listener: settled at once while `out` takes more, else (or when
 * `last`) when this write is done, with its error. A failed write fails the writes after it too.
 */
function writeTo(out: Writable, part: Buffer | string, last = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const more = out.write(part, (error) => (error ? reject(error) : resolve()));
    if (more && !last) resolve();
  });
}
