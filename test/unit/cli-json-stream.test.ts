import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { writeStreamedJson } from '../../src/cli/json-stream.js';

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
    expect(out).toBe(`${JSON.stringify({ id: 'snap-1', diff: content.toString('utf8') }, null, 2)}\n`);
    expect((JSON.parse(out) as { diff: string }).diff).toBe(content.toString('utf8'));
  });

  it('writes an empty string for an empty file', async () => {
    expect(await streamed(Buffer.alloc(0))).toBe('{\n  "id": "snap-1",\n  "diff": ""\n}\n');
  });
});
