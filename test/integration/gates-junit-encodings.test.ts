/**
 * JUnit reports are XML, and every XML processor reads UTF-16 (found by its byte order mark, or by
 * `<?` written as two-byte units) as well as UTF-8; a declared `encoding="ISO-8859-1"` names how
 * the bytes read. A report written so (PowerShell's Out-File writes UTF-16) is counted like any
 * other, not an `error` verdict "not well-formed XML", and its test names keep their letters.
 */
import { describe, expect, it } from 'vitest';
import { gatedRun, nodeTests, quiet } from '../helpers/gates.js';

const REPORT =
  '<testsuite name="suite"><testcase name="café"><failure message="broken"/></testcase><testcase name="b"/></testsuite>';

/** A check that writes `bytes` to junit.xml and exits 0. */
const writes = (bytes: Buffer) => [
  'node',
  '-e',
  `require('fs').writeFileSync('junit.xml', Buffer.from(${JSON.stringify(bytes.toString('base64'))}, 'base64'))`,
];

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1] as number, le[i] as number];
  return le;
}

const declared = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?>\n${REPORT}`;

describe('gate reads a JUnit report in the encoding XML says', () => {
  it.each([
    ['UTF-16LE with a byte order mark', Buffer.from(`\ufeff${declared('UTF-16')}`, 'utf16le')],
    ['UTF-16BE with a byte order mark', utf16be(`\ufeff${declared('UTF-16')}`)],
    ['UTF-16LE without one', Buffer.from(declared('UTF-16LE'), 'utf16le')],
    ['ISO-8859-1, as declared', Buffer.from(declared('ISO-8859-1'), 'latin1')],
    ['UTF-8 with a byte order mark', Buffer.from(`\ufeff${declared('UTF-8')}`, 'utf8')],
    // Labels of UTF-16 by another name (WHATWG: UCS-2, unicode, ISO-10646-UCS-2...), declared in
    // one-byte units, are the same contradiction as a declared UTF-16: read as UTF-8.
    ['UCS-2 declared in one-byte units', Buffer.from(declared('UCS-2'), 'utf8')],
    ['ISO-10646-UCS-2 declared in one-byte units', Buffer.from(declared('ISO-10646-UCS-2'), 'utf8')],
  ])('%s', async (_what, bytes) => {
    const { dir, gates } = await gatedRun([{ 't.test.mjs': nodeTests(1) }]);
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'test',
      command: writes(bytes),
      junit: ['junit.xml'],
      echo: quiet(),
    });
    expect(result).toMatchObject({ verdict: 'fail', exitCode: 0 });
    expect(result.tests).toEqual({
      total: 2,
      passed: 1,
      failed: 1,
      skipped: 0,
      errors: 0,
      failures: [{ suite: 'suite', name: 'café', message: 'broken' }],
    });
  });
});
