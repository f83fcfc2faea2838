/**
 * JUnit XML, as the runners write it, read as a stream (text chunks in, counts out; memory does not
 * grow with the file). JUnit is a family of dialects: the root is `<testsuites>` or `<testsuite>`,
 * suites nest (Node, PHPUnit), test cases may sit directly under `<testsuites>` (Node's reporter),
 * `<error>` stands beside `<failure>` (and, outside any test case, counts as a test of its own), and
 * the count attributes of a suite often disagree with what it holds (runners that crash half-way,
 * reruns). Only the elements are counted; the attributes are
 * never trusted. The file is untrusted too: no DOCTYPE (so no entity is declared, expanded or
 * fetched: only XML's five and character references, one character each), at most MAX_DEPTH
 * nested elements, and only the first MAX_MESSAGE characters of a failure's text are kept.
 */
import { TextArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { JunitParseError } from '../errors.js';
import { ellipsized, firstChars } from '../text.js';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_RECORDED_FAILURES, type TestCounts, type TestFailure } from '../../types/gate.js';

// Why a text is not a JUnit report (JUNIT_INVALID; the caller adds which file).
export { JunitParseError };

/** Cuts for what a verdict keeps of one failed test (the schema's limits, with room to spare). */
const MAX_NAME = 1_000;
const MAX_MESSAGE = 4_000;

/** Deeper nesting than any runner writes (suites of suites stay under ten). */
export const MAX_DEPTH = 100;

/** More attributes on one element than any runner writes (a suite has about ten): each costs memory until the tag closes. */
export const MAX_ATTRIBUTES = 1_000;

/**
 * A character XML 1.0 forbids, raw or as a reference (the escape of a coloured message; Node's
 * reporter writes it raw): kept as written, as every runner's reader does. saxes 6's messages.
 */
const TOLERATED = new Set(['disallowed character.', 'malformed character entity.']);

/** The test case being read: what decides how it counts, and what a failure keeps. */
interface OpenCase {
  depth: number;
  suite: string;
  name: string;
  classname: string;
  failed: boolean;
  errored: boolean;
  skipped: boolean;
  /**
   * The first <failure> (else <error>): its message attribute, or its text as it is read until that
   * element closes (a <system-out> or <error> after it is not its message).
   */
  problem: {
    fromFailure: boolean;
    message: string | null;
    text: string;
    depth: number;
    closed: boolean;
  } | null;
}

/** Counts one JUnit document written to it in chunks; `end` gives the counts or throws JunitParseError. */
export class JunitCounter {
  private readonly parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  private readonly counts = emptyCounts();
  /** Element names from the root down; suites' names beside them. */
  private readonly path: string[] = [];
  private readonly suites: string[] = [];
  private open: OpenCase | null = null;
  private rootSeen = false;
  /** Attributes of the tag being read. */
  private attributes = 0;
  private failure: JunitParseError | null = null;

  constructor() {
    const p = this.parser;
    // saxes makes an Error (message, position, stack) for each such character before our handler
    // may pass over it: 200 MB of NULs in a <system-out> kept a gate parsing for over ten minutes.
    // The characters XML forbids that we keep are passed over here, before any Error is made.
    const fail = p.fail.bind(p);
    p.fail = (message: string) => (TOLERATED.has(message) ? p : fail(message));
    p.on('error', (e) => {
      // A character XML 1.0 forbids, raw or as a reference (the escape of a coloured message; Node's
      // reporter writes it raw): kept as written, as every runner's reader does.
      if (/(disallowed character|malformed character entity)\.$/.test(e.message)) return;
      this.fail(`not well-formed XML (${e.message})`);
    });
    p.on('doctype', () =>
      this.fail('it has a DOCTYPE: entities and external references are not read in a JUnit report'),
    );
    p.on('opentagstart', () => (this.attributes = 0));
    p.on('attribute', () => {
      if (++this.attributes > MAX_ATTRIBUTES)
        this.fail(`an element has more than ${MAX_ATTRIBUTES} attributes`);
    });
    p.on('opentag', (tag) => this.openTag(tag));
    p.on('closetag', (tag) => this.closeTag(tag.name));
    p.on('text', (text) => this.addText(text));
    p.on('cdata', (text) => this.addText(text));
  }

  write(chunk: string): void {
    this.guard(() => this.parser.write(chunk));
    capPending(this.parser);
  }

  end(): TestCounts {
    this.guard(() => this.parser.close());
    if (!this.rootSeen) this.fail('not well-formed XML (no root element)');
    return this.counts;
  }

  private fail(message: string): never {
    this.failure ??= new JunitParseError(message);
    throw this.failure;
  }

  /** A parser error becomes this report's JunitParseError; a string too long for V8 is one too. */
  private guard(fn: () => void): void {
    if (this.failure !== null) throw this.failure;
    try {
      fn();
    } catch (error) {
      if (error instanceof JunitParseError) throw error;
      if (error instanceof RangeError) this.fail('a text or attribute too long to read');
      this.fail(`not well-formed XML (${(error as Error).message})`);
    }
  }

  private openTag(tag: SaxesTagPlain): void {
    const parent = this.path.at(-1);
    this.path.push(tag.name);
    if (this.path.length > MAX_DEPTH) this.fail(`elements are nested more than ${MAX_DEPTH} deep`);
    const attr = (name: string) => tag.attributes[name];
    if (parent === undefined) {
      if (tag.name !== 'testsuites' && tag.name !== 'testsuite')
        this.fail('the root element is neither <testsuites> nor <testsuite>');
      this.rootSeen = true;
    }
    const inSuites = parent === undefined || parent === 'testsuite' || parent === 'testsuites';
    if (tag.name === 'testsuite' && inSuites && this.open === null) {
      this.suites.push(attr('name') ?? this.suites.at(-1) ?? '');
    } else if (tag.name === 'testcase' && parent !== undefined && inSuites && this.open === null) {
      this.open = {
        depth: this.path.length,
        suite: this.suites.at(-1) ?? '',
        name: attr('name') ?? '',
        classname: attr('classname') ?? '',
        failed: false,
        errored: false,
        // GoogleTest writes a DISABLED_ test with no element inside, only `status="notrun"`.
        skipped: attr('status') === 'notrun',
        problem: null,
      };
    } else if ((tag.name === 'failure' || tag.name === 'error') && inSuites && this.open === null) {
      // Outside any test case (Ant's formatter puts a class that failed to load there): the report
      // shows a failure all the same, counted as one test of the suite, open until this element closes.
      const isFailure = tag.name === 'failure';
      this.open = {
        depth: this.path.length,
        suite: this.suites.at(-1) ?? '',
        name: '',
        classname: '',
        failed: isFailure,
        errored: !isFailure,
        skipped: false,
        problem: {
          fromFailure: isFailure,
          message: attr('message') ?? null,
          text: '',
          depth: this.path.length,
          closed: false,
        },
      };
    } else if (this.open !== null && this.path.length === this.open.depth + 1) {
      const c = this.open;
      const isFailure = tag.name === 'failure';
      if (isFailure) c.failed = true;
      else if (tag.name === 'error') c.errored = true;
      else if (tag.name === 'skipped') c.skipped = true;
      if (
        (isFailure || tag.name === 'error') &&
        (c.problem === null || (isFailure && !c.problem.fromFailure))
      )
        c.problem = {
          fromFailure: isFailure,
          message: attr('message') ?? null,
          text: '',
          depth: this.path.length,
          closed: false,
        };
    }
  }

  private closeTag(name: string): void {
    const depth = this.path.length;
    this.path.pop();
    const c = this.open;
    if (c !== null && c.problem !== null && depth === c.problem.depth) c.problem.closed = true;
    if (c !== null && depth === c.depth) {
      this.closeCase(c);
      this.open = null;
    } else if (c === null && name === 'testsuite' && this.suites.length > 0) this.suites.pop();
  }

  private closeCase(c: OpenCase): void {
    const counts = this.counts;
    counts.total += 1;
    if (c.failed || c.errored) {
      if (c.failed) counts.failed += 1;
      else counts.errors += 1;
      if (counts.failures.length < MAX_RECORDED_FAILURES) counts.failures.push(failureOf(c));
    } else if (c.skipped) counts.skipped += 1;
    else counts.passed += 1;
  }

  /** Only a failure's own text is kept, and only up to the cut: a huge <system-out> costs nothing. */
  private addText(text: string): void {
    const p = this.open?.problem;
    if (p === undefined || p === null || p.closed || p.message !== null) return;
    if (p.text.length <= MAX_MESSAGE) p.text += firstChars(text, MAX_MESSAGE + 1 - p.text.length).text;
  }
}

/** More than any use of a text or attribute value here: a failure's message, a name (see the cuts above). */
const MAX_PENDING = 4 * MAX_MESSAGE;

/**
 * saxes gathers a text, CDATA section, comment or attribute value (`text`), a name (`name`), an
 * entity reference (`entity`) and a processing instruction's target (`piTarget`: `<?aaa...`, 300 MB
 * of it took 1.1 GB) whole before it hands it on, so a huge <system-out> (or one CDATA
 * section of it, as surefire writes) would be held whole in memory, up to V8's longest string and
 * then a parse error. Between chunks only its beginning is kept: all that is ever read of it (a
 * name cut so differs from its closing tag: not well-formed; an entity cut is unknown all the same).
 * These are saxes 6's buffers; one that is absent is left alone.
 */
function capPending(parser: SaxesParser<{ xmlns: false; position: true }>): void {
  const buffers = parser as unknown as Record<(typeof BUFFERS)[number], unknown>;
  for (const key of BUFFERS) {
    const value = buffers[key];
    if (typeof value === 'string' && value.length > MAX_PENDING) buffers[key] = value.slice(0, MAX_PENDING);
  }
}

const BUFFERS = ['text', 'name', 'entity', 'piTarget'] as const;

/** The counts of one JUnit document. Throws JunitParseError when it is not well-formed JUnit. */
export function parseJunit(xml: string): TestCounts {
  checkArgument(TextArg, xml, 'xml');
  const counter = new JunitCounter();
  counter.write(xml);
  return counter.end();
}

export function emptyCounts(): TestCounts {
  return { total: 0, passed: 0, failed: 0, skipped: 0, errors: 0, failures: [] };
}

/** The counts of several files together; the failures list stays capped. */
export function addCounts(a: TestCounts, b: TestCounts): TestCounts {
  return {
    total: a.total + b.total,
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
    errors: a.errors + b.errors,
    failures: [...a.failures, ...b.failures].slice(0, MAX_RECORDED_FAILURES),
  };
}

function failureOf(c: OpenCase): TestFailure {
  return {
    suite: cut(c.suite || c.classname, MAX_NAME),
    name: cut(c.name, MAX_NAME),
    message: cut(c.problem?.message ?? c.problem?.text.trim() ?? '', MAX_MESSAGE),
  };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : ellipsized(text, max - 1);
}
