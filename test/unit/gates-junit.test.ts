import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { SaxesParser } from 'saxes';
import { MAX_RECORDED_FAILURES, TestCounts } from '../../types/gate.js';
import {
  addCounts,
  JunitCounter,
  JunitParseError,
  MAX_ATTRIBUTES,
  parseJunit,
} from '../../src/gates/junit.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/junit/${name}`, import.meta.url), 'utf8');

/** The counts without the failure list, for compact expectations. */
const numbers = (c: TestCounts) => ({
  total: c.total,
  passed: c.passed,
  failed: c.failed,
  skipped: c.skipped,
  errors: c.errors,
});

describe('parseJunit on real reports of several runners', () => {
  it("Node's --test-reporter=junit: test cases under <testsuites>, nested suites, todo as skipped", () => {
    const c = parseJunit(fixture('node-test.xml'));
    expect(numbers(c)).toEqual({ total: 7, passed: 3, failed: 2, skipped: 2, errors: 0 });
    expect(c.failures.map((f) => [f.suite, f.name])).toEqual([
      ['test', 'fails'],
      ['math suite', 'throws'],
    ]);
    // Node escapes the quotes twice; the name is kept exactly as the file says.
    expect(c.failures[0]?.message).toContain('2 !== 3');
    expect(TestCounts.parse(c)).toEqual(c);
  });

  it('vitest junit: entities in names, empty <skipped/> elements', () => {
    const c = parseJunit(fixture('vitest.xml'));
    expect(numbers(c)).toEqual({ total: 5, passed: 2, failed: 1, skipped: 2, errors: 0 });
    expect(c.failures[0]?.name).toBe('parser <suite> & co > fails with "quotes"');
    expect(c.failures[0]?.suite).toBe('v.test.ts');
  });

  it('pytest: <error> beside <failure>, skipped with a message', () => {
    const c = parseJunit(fixture('pytest.xml'));
    expect(numbers(c)).toEqual({ total: 5, passed: 2, failed: 1, skipped: 1, errors: 1 });
    expect(c.failures.map((f) => f.name)).toEqual(['test_divide', 'test_fixture']);
    expect(c.failures[1]?.message).toContain('FileNotFoundError');
  });

  it('jest-junit: CDATA failure text without a message attribute', () => {
    const c = parseJunit(fixture('jest-junit.xml'));
    expect(numbers(c)).toEqual({ total: 4, passed: 2, failed: 1, skipped: 1, errors: 0 });
    expect(c.failures[0]?.name).toBe('Cart applies the <b>discount</b> & tax');
    expect(c.failures[0]?.message).toContain('Expected: 90');
  });

  it('mocha xunit: root <testsuite>, attributes that disagree with the elements (errors="1", none there)', () => {
    const c = parseJunit(fixture('mocha-xunit.xml'));
    expect(numbers(c)).toEqual({ total: 4, passed: 2, failed: 1, skipped: 1, errors: 0 });
  });

  it('Maven surefire: properties, system-out, <error>, flakyFailure is not a failure', () => {
    const c = parseJunit(fixture('surefire.xml'));
    expect(numbers(c)).toEqual({ total: 5, passed: 2, failed: 1, skipped: 1, errors: 1 });
    expect(c.failures.map((f) => f.message)).toEqual([
      'expected: <400> but was: <200>',
      'Connection refused',
    ]);
  });
});

describe('parseJunit on odd and hostile input', () => {
  it('counts elements, never the count attributes', () => {
    const c = parseJunit(
      '<testsuite tests="99" failures="0" errors="7" skipped="3"><testcase name="a"><failure/></testcase></testsuite>',
    );
    expect(numbers(c)).toEqual({ total: 1, passed: 0, failed: 1, skipped: 0, errors: 0 });
  });

  it('an empty <testsuites/> has zero tests', () => {
    expect(numbers(parseJunit('<?xml version="1.0"?><testsuites/>'))).toEqual({
      total: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      errors: 0,
    });
  });

  it('100,000 test cases: exact counts, failures capped at MAX_RECORDED_FAILURES', () => {
    const cases: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      if (i % 10 === 0) cases.push(`<testcase name="t${i}"><failure message="m${i}"/></testcase>`);
      else if (i % 10 === 1) cases.push(`<testcase name="t${i}"><error message="e${i}"/></testcase>`);
      else if (i % 10 === 2) cases.push(`<testcase name="t${i}"><skipped/></testcase>`);
      else cases.push(`<testcase name="t${i}" classname="c"/>`);
    }
    const c = parseJunit(`<testsuites><testsuite name="big">${cases.join('')}</testsuite></testsuites>`);
    expect(numbers(c)).toEqual({
      total: 100_000,
      passed: 70_000,
      failed: 10_000,
      skipped: 10_000,
      errors: 10_000,
    });
    expect(c.failures).toHaveLength(MAX_RECORDED_FAILURES);
    expect(c.failures[0]).toEqual({ suite: 'big', name: 't0', message: 'm0' });
  });

  it('hostile text in names and messages is kept as is (the printers escape it)', () => {
    const c = parseJunit(
      '<testsuite name="s&#10;::error::x"><testcase name="a&#27;[31m&#10;::warning::b"><failure message="line1&#10;line2 &lt;script&gt;"/></testcase></testsuite>',
    );
    expect(c.failures[0]).toMatchObject({ suite: 's\n::error::x', message: 'line1\nline2 <script>' });
    // XML 1.0 has no escape character: the reference is kept as written; the rest stays.
    expect(c.failures[0]?.name).toBe('a&#27;[31m\n::warning::b');
  });

  it.each([
    [
      'an internal entity (a billion laughs)',
      '<!DOCTYPE t [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><testsuite><testcase name="&b;"/></testsuite>',
    ],
    [
      'an external (SYSTEM) entity',
      '<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&x;"/></testsuite>',
    ],
    [
      'an entity expanding past 100,000 characters',
      `<!DOCTYPE t [<!ENTITY a "${'A'.repeat(100_001)}">]><testsuite><testcase name="&a;"/></testsuite>`,
    ],
    ['an undeclared entity', '<testsuite><testcase name="&nope;"/></testsuite>'],
    [
      'more than 100 nested elements',
      `<testsuites>${'<testsuite>'.repeat(100)}${'</testsuite>'.repeat(100)}</testsuites>`,
    ],
  ])('%s is a JunitParseError, never expanded or fetched', (_what, text) => {
    expect(() => parseJunit(text)).toThrow(JunitParseError);
  });

  it('100 nested elements are read', () => {
    const text = `<testsuites>${'<testsuite>'.repeat(98)}<testcase name="deep"/>${'</testsuite>'.repeat(98)}</testsuites>`;
    expect(numbers(parseJunit(text))).toMatchObject({ total: 1, passed: 1 });
  });

  it('streamed in chunks cut anywhere, the counts are the same; a huge <system-out> is not kept', () => {
    const whole = fixture('surefire.xml');
    const counter = new JunitCounter();
    for (let i = 0; i < whole.length; i += 7) counter.write(whole.slice(i, i + 7));
    expect(counter.end()).toEqual(parseJunit(whole));
    const big = new JunitCounter();
    big.write('<testsuite><testcase name="a"><failure>');
    for (let i = 0; i < 100; i++) big.write('x'.repeat(100_000));
    big.write('</failure><system-out>');
    for (let i = 0; i < 100; i++) big.write('y'.repeat(100_000));
    big.write('</system-out></testcase></testsuite>');
    const c = big.end();
    expect(c.failed).toBe(1);
    expect(c.failures[0]?.message.length).toBeLessThanOrEqual(4_000);
  });

  it('an element with more attributes than any runner writes is a JunitParseError (each would cost memory)', () => {
    const attrs = (n: number, prefix = 'a') =>
      Array.from({ length: n }, (_, i) => ` ${prefix}${i}=""`).join('');
    const ok = parseJunit(`<testsuite${attrs(MAX_ATTRIBUTES)}><testcase name="t"/></testsuite>`);
    expect(ok.total).toBe(1);
    const counter = new JunitCounter();
    expect(() => {
      counter.write('<testsuite');
      // Fed as a file is read: the element is refused before its tag ends.
      for (let i = 0; i < 10; i++) counter.write(attrs(MAX_ATTRIBUTES, `b${i}x`));
    }).toThrow(JunitParseError);
  });

  it("a failure's message is its own text: not the <system-out>, <system-err> or <error> after it", () => {
    const c = parseJunit(
      '<testsuite><testcase name="a"><failure>assert 1 == 2</failure><system-out>LOG</system-out>' +
        '<system-err>ERR</system-err></testcase><testcase name="b"><failure>x</failure><error>y</error>' +
        'tail</testcase><testcase name="c"><error>first</error><failure>second<b>nested</b></failure>' +
        '<system-out>out</system-out></testcase></testsuite>',
    );
    expect(c.failures.map((f) => f.message)).toEqual(['assert 1 == 2', 'x', 'secondnested']);
  });

  it.each([
    ['not XML', 'hello'],
    ['truncated', '<testsuite><testcase name="a">'],
    ['another root', '<html><body/></html>'],
    ['empty', ''],
  ])('%s is a JunitParseError', (_what, text) => {
    expect(() => parseJunit(text)).toThrow(JunitParseError);
  });

  it('addCounts sums several files and keeps the cap', () => {
    const many = parseJunit(
      `<testsuite>${Array.from({ length: 40 }, (_, i) => `<testcase name="${i}"><failure/></testcase>`).join('')}</testsuite>`,
    );
    const sum = addCounts(many, many);
    expect(sum.failed).toBe(80);
    expect(sum.failures).toHaveLength(MAX_RECORDED_FAILURES);
  });
});

describe('parseJunit cuts a long failure text on a character', () => {
  it('keeps no half of a surrogate pair, from a message attribute or from the text', () => {
    const emoji = '😀'.repeat(5000);
    for (const failure of [`<failure message="${emoji}"/>`, `<failure>${emoji}</failure>`]) {
      const c = parseJunit(`<testsuite><testcase name="t">${failure}</testcase></testsuite>`);
      const message = c.failures[0]?.message ?? '';
      expect(message.endsWith('…')).toBe(true);
      expect(message.isWellFormed()).toBe(true);
    }
  });
});

describe('parseJunit: a failure or error outside any test case', () => {
  // Ant's XML formatter writes an error it cannot pin on a test (a class that fails to load, a
  // failed @BeforeClass) straight under <testsuite>; the report shows an error: no gate may pass.
  it('an <error> or <failure> directly under a suite counts as one errored or failed test of it', () => {
    const c = parseJunit(
      '<testsuites><testsuite name="A"><testcase name="ok"/>' +
        '<error message="ExceptionInInitializerError" type="java.lang.Error">trace</error></testsuite>' +
        '<testsuite name="B"><failure>setup failed</failure></testsuite></testsuites>',
    );
    expect(numbers(c)).toEqual({ total: 3, passed: 1, failed: 1, skipped: 0, errors: 1 });
    expect(c.failures).toEqual([
      { suite: 'A', name: '', message: 'ExceptionInInitializerError' },
      { suite: 'B', name: '', message: 'setup failed' },
    ]);
    expect(TestCounts.parse(c)).toEqual(c);
  });

  it('under a root <testsuite> too; a <failure> inside a test case is counted once, as before', () => {
    const c = parseJunit(
      '<testsuite name="S"><error message="boom"/><testcase name="t"><failure message="x"/></testcase></testsuite>',
    );
    expect(numbers(c)).toEqual({ total: 2, passed: 0, failed: 1, skipped: 0, errors: 1 });
  });
});

describe('parseJunit: GoogleTest', () => {
  // --gtest_output=xml writes a DISABLED_ test as a test case with status="notrun" and nothing inside.
  it('a test case with status="notrun" did not run: skipped, so a binary of disabled tests is "no tests ran"', () => {
    const c = parseJunit(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="3" failures="1" disabled="1" errors="0" name="AllTests">' +
        '<testsuite name="Rect" tests="3" failures="1" disabled="1" skipped="0" errors="0">' +
        '<testcase name="Area" status="run" result="completed" classname="Rect"/>' +
        '<testcase name="Tangle" status="run" result="completed" classname="Rect"><failure message="t.cpp:3 x"/></testcase>' +
        '<testcase name="DISABLED_Later" status="notrun" result="suppressed" classname="Rect"/>' +
        '</testsuite></testsuites>',
    );
    expect(numbers(c)).toEqual({ total: 3, passed: 1, failed: 1, skipped: 1, errors: 0 });
    const disabled = parseJunit(
      '<testsuites><testsuite name="D"><testcase name="DISABLED_a" status="notrun" result="suppressed"/></testsuite></testsuites>',
    );
    expect(numbers(disabled)).toEqual({ total: 1, passed: 0, failed: 0, skipped: 1, errors: 0 });
  });
});

describe('characters XML forbids, by the million', () => {
  it('cost no error each: a <system-out> of NULs and escapes is read through, its test counted', () => {
    const made = vi.spyOn(SaxesParser.prototype, 'makeError');
    try {
      const counter = new JunitCounter();
      counter.write('<testsuite><testcase name="t"><system-out>');
      for (let i = 0; i < 10; i++) counter.write('\u0000\u001b[31m&#x1b;'.repeat(10_000));
      counter.write('</system-out></testcase></testsuite>');
      expect(numbers(counter.end())).toMatchObject({ total: 1, passed: 1 });
      // saxes would make an Error, with its stack, for each of the 200,000 (minutes on 200 MB).
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });
});
