import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { writeStreamedJson } from '../../src/cli/json-stream.js';
import { decodeBytes, encodeBytes } from '../../src/fs/path-bytes.js';
import { jsonText } from '../../src/text.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function streamed(content: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'agentgate-json-stream-'));
  dirs.push(dir);
  const file = join(dir, 'patch.diff');
  writeFileSync(file, content);
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await writeStreamedJson({ prefix: '{\n  "id": "snap-1",\n  "diff": "', file, suffix: '"\n}\n' }, sink);
  return Buffer.concat(chunks).toString('utf8');
}

describe('writeStreamedJson', () => {
  it('writes the same bytes as JSON.stringify, across chunk boundaries and for any byte', async () => {
    // More than one 64 KiB read chunk, multi-byte characters straddling the boundaries, every
    // byte value (invalid UTF-8 included), quotes, backslashes, control and line-separator characters.
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const text = Buffer.from('é"\\\n\t\u2028€😀'.repeat(20_000), 'utf8');
    const content = Buffer.concat([text, all, text.subarray(1), all]);
    const out = await streamed(content);
    // As jsonText writes it: U+2028 escaped (a line break to Python's splitlines), the same string.
    expect(out).toBe(`${jsonText({ id: 'snap-1', diff: decodeBytes(content) }, 2)}\n`);
    expect(out).not.toContain('\u2028');
    expect(encodeBytes((JSON.parse(out) as { diff: string }).diff).equals(content)).toBe(true);
  });

  it('keeps bytes that are not UTF-8 as \\udcNN, whichever chunk boundary cuts them, so the diff encodes back to its bytes', async () => {
    // Latin-1 content and a file name, as git prints them, then every cut of a sequence: a lead
    // byte or a partial sequence at the end of a 64 KiB chunk, completed or broken by the next.
    const latin1 = Buffer.from('+caf\xe9\ndiff --git a/n\xe9 b/n\xe9\n', 'latin1');
    const tails = ['\u00e9', '\u20ac', '\u{1F600}'].map((c) => Buffer.from(c, 'utf8'));
    const parts: Buffer[] = [latin1];
    for (const tail of tails)
      for (let keep = 1; keep <= tail.length; keep++)
        for (const next of [tail.subarray(keep), Buffer.from('x'), Buffer.from([0x80, 0x80, 0x80])]) {
          const pad = 65536 - (Buffer.concat(parts).length % 65536) - keep;
          parts.push(Buffer.alloc(pad < 0 ? pad + 65536 : pad, 0x61), tail.subarray(0, keep), next);
        }
    const content = Buffer.concat(parts);
    const out = await streamed(content);
    expect(out).toBe(`${JSON.stringify({ id: 'snap-1', diff: decodeBytes(content) }, null, 2)}\n`);
    expect(out).toContain('caf\\udce9');
    expect(out).not.toContain('\ufffd');
    expect(encodeBytes((JSON.parse(out) as { diff: string }).diff).equals(content)).toBe(true);
  });

  it('writes an empty string for an empty file', async () => {
    expect(await streamed(Buffer.alloc(0))).toBe('{\n  "id": "snap-1",\n  "diff": ""\n}\n');
  });

  it('leaves no listener on its output, however many documents it writes there (serve answers patch after patch)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentgate-json-stream-'));
    dirs.push(dir);
    const file = join(dir, 'patch.diff');
    writeFileSync(file, 'diff --git a/x b/x\n'.repeat(10_000));
    const sink = new Writable({ write: (_chunk, _enc, done) => done() });
    const events = ['error', 'close', 'finish', 'end', 'drain', 'unpipe'];
    const before = events.map((e) => sink.listenerCount(e));
    for (let i = 0; i < 20; i++) await writeStreamedJson({ prefix: '"', file, suffix: '"\n' }, sink);
    expect(events.map((e) => sink.listenerCount(e))).toEqual(before);
  });

  it('rejects when its output fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentgate-json-stream-'));
    dirs.push(dir);
    const file = join(dir, 'patch.diff');
    writeFileSync(file, 'x'.repeat(1024 * 1024));
    let writes = 0;
    const sink = new Writable({
      write: (_chunk, _enc, done) =>
        done(++writes > 2 ? Object.assign(new Error('gone'), { code: 'EPIPE' }) : null),
    });
    sink.on('error', () => undefined);
    await expect(writeStreamedJson({ prefix: '"', file, suffix: '"\n' }, sink)).rejects.toMatchObject({
      code: 'EPIPE',
    });
  });

  it('writes no `##[` (a legacy workflow command to the runner of GitHub Actions), wherever the chunks cut it, and the string reads back the same', async () => {
    // `#`, `##` and `##[` at every offset around the 64 KiB read chunk boundary.
    const parts: Buffer[] = [];
    for (let shift = 0; shift < 6; shift++)
      parts.push(Buffer.from(`${'a'.repeat(64 * 1024 - 3 + shift)}###[error]x ##[add-mask]y #`));
    const content = Buffer.concat(parts);
    const out = await streamed(content);
    expect(out).not.toContain('##[');
    expect((JSON.parse(out) as { diff: string }).diff).toBe(content.toString('utf8'));
  });
});
