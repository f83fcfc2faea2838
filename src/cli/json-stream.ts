import { createReadStream } from 'node:fs';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';

/**
 * A JSON document with one large string inside, written as it is read: `prefix` (the document up
 * to and including the string's opening quote), the bytes of `file` decoded as UTF-8 and escaped as
 * a JSON string body chunk by chunk, then `suffix`. The output is byte-identical to JSON.stringify
 * of the same document, but never holds more than one chunk of the file in memory.
 */
export interface StreamedJson {
  prefix: string;
  file: string;
  suffix: string;
}

/** A transform from raw bytes to the body of a JSON string (no quotes), multi-byte safe across chunks. */
function jsonStringBody(): Transform {
  const decoder = new StringDecoder('utf8');
  const escape = (text: string): string => (text.length === 0 ? '' : JSON.stringify(text).slice(1, -1));
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, escape(decoder.write(chunk)));
    },
    flush(done) {
      done(null, escape(decoder.end()));
    },
  });
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
