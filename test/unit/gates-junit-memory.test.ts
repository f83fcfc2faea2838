// The JUnit reader's memory bound on 64 MiB texts (about 15 s): in `npm test`, not in `test:fast`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { JunitCounter, JunitParseError } from '../../src/gates/junit.js';

describe('parseJunit on huge input', () => {
  it('a huge text, CDATA section, name, processing instruction target or entity reference is not held in memory (only its beginning is kept)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const head = '<testsuite><testcase name="a"><failure>assert</failure>';
    for (const [open, close, valid] of [
      ['<system-out>', '</system-out>', true],
      ['<system-out><![CDATA[', ']]></system-out>', true],
      ['<x', '/>', true],
      // A processing instruction's target: saxes gathers it apart from the text.
      ['<?', ' pi?>', true],
      ['&', ';', false],
    ] as const) {
      const counter = new JunitCounter();
      counter.write(head + open);
      const before = heap();
      // 64 MiB in distinct chunks, as a file is read: held whole, the heap grows by all of it.
      for (let i = 0; i < 64; i++) counter.write(String.fromCharCode(97 + (i % 26)).repeat(1 << 20));
      expect(heap() - before).toBeLessThan(16 << 20);
      const rest = () => {
        counter.write(`${close}</testcase></testsuite>`);
        return counter.end();
      };
      if (valid) expect(rest().failures[0]?.message).toBe('assert');
      else expect(rest).toThrow(JunitParseError);
    }
  });
});
