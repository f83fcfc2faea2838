/**
 * JUnit XML, as the runners write it (pure: text in, counts out). JUnit is a family of dialects:
 * the root is `<testsuites>` or `<testsuite>`, suites nest (Node, PHPUnit), test cases may sit
 * directly under `<testsuites>` (Node's reporter), `<error>` stands beside `<failure>`, and the
 * count attributes of a suite often disagree with what it holds (runners that crash half-way,
 * reruns). Only the elements are counted; the attributes are never trusted.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_RECORDED_FAILURES, type TestCounts, type TestFailure } from '../../types/gate.js';

/** Why a text is not a JUnit report; the caller adds which file. */
export class JunitParseError extends Error {}

/** Cuts for what a verdict keeps of one failed test (the schema's limits, with room to spare). */
const MAX_NAME = 1_000;
const MAX_MESSAGE = 4_000;

interface Attrs {
  name?: string;
  classname?: string;
  message?: string;
}
interface Problem {
  $?: Attrs;
  '#text'?: string;
}
interface Case {
  $?: Attrs;
  failure?: Problem[];
  error?: Problem[];
  skipped?: Problem[];
}
interface Suite {
  $?: Attrs;
  testsuite?: Suite[];
  testcase?: Case[];
}

const ARRAYS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '$',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ARRAYS.has(name),
});

/** The counts of one JUnit document. Throws JunitParseError when it is not well-formed JUnit. */
export function parseJunit(xml: string): TestCounts {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new JunitParseError(`not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  }
  const doc = parser.parse(xml) as { testsuites?: Suite | ''; testsuite?: Suite[] };
  let root: Suite;
  if (doc.testsuites !== undefined) root = doc.testsuites === '' ? {} : doc.testsuites;
  else if (doc.testsuite !== undefined) root = { testsuite: doc.testsuite };
  else throw new JunitParseError('the root element is neither <testsuites> nor <testsuite>');
  const counts = emptyCounts();
  walk(root, '', counts);
  return counts;
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

/** Each test case counts once: failed if it has a <failure>, else errored if an <error>, else skipped if a <skipped>. */
function walk(suite: Suite, suiteName: string, counts: TestCounts): void {
  for (const c of suite.testcase ?? []) {
    const node = typeof c === 'object' ? c : {};
    counts.total += 1;
    const problem = node.failure?.[0] ?? node.error?.[0];
    if (problem !== undefined) {
      if (node.failure !== undefined) counts.failed += 1;
      else counts.errors += 1;
      if (counts.failures.length < MAX_RECORDED_FAILURES)
        counts.failures.push(failureOf(node, problem, suiteName));
    } else if (node.skipped !== undefined) counts.skipped += 1;
    else counts.passed += 1;
  }
  for (const child of suite.testsuite ?? []) {
    const node = typeof child === 'object' ? child : {};
    walk(node, node.$?.name ?? suiteName, counts);
  }
}

function failureOf(c: Case, problem: Problem | string, suiteName: string): TestFailure {
  const p: Problem = typeof problem === 'object' ? problem : { '#text': problem };
  const message = p.$?.message ?? p['#text'] ?? '';
  return {
    suite: cut(suiteName || (c.$?.classname ?? ''), MAX_NAME),
    name: cut(c.$?.name ?? '', MAX_NAME),
    message: cut(message, MAX_MESSAGE),
  };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
