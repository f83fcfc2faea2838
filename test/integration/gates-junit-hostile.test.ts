/**
 * Hostile JUnit (issue 26, items 6 and 7): deep nesting, declared and external entities, entity
 * bombs give an `error` verdict with reason JUNIT_INVALID, recorded like any other, with nothing
 * left behind; the reader streams, so counts stay exact whatever the file's size.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatedRun, nodeTests, quiet } from '../helpers/gates.js';
import { iterationArtifactsDir } from '../../src/store/paths.js';

const TEST_FILE = { 't.test.mjs': nodeTests(1) };

/** A check that writes `xml` to junit.xml and exits 0. */
const writes = (xml: string) => [
  'node',
  '-e',
  `require('fs').writeFileSync('junit.xml', ${JSON.stringify(xml)})`,
];

describe('gate with a hostile JUnit file', () => {
  it.each([
    [
      'more than 100 nested elements',
      `<testsuites>${'<testsuite>'.repeat(150)}${'</testsuite>'.repeat(150)}</testsuites>`,
    ],
    [
      'an external (SYSTEM) entity',
      '<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&x;"/></testsuite>',
    ],
    [
      'an entity expansion over 100,000 characters',
      `<!DOCTYPE t [<!ENTITY a "${'A'.repeat(1000)}"><!ENTITY b "${'&a;'.repeat(200)}">]><testsuite><testcase name="&b;"/></testsuite>`,
    ],
  ])('%s: an error verdict JUNIT_INVALID is recorded, no temp log left', async (_what, xml) => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'test',
      command: writes(xml),
      junit: ['junit.xml'],
      echo: quiet(),
    });
    expect(result).toMatchObject({ verdict: 'error', exitCode: 0, tests: null });
    expect(result.reason).toMatch(/^JUNIT_INVALID: /);
    expect((await gates.list({ runId: 'r1' })).results.map((g) => g.id)).toEqual([result.id]);
    const logs = readdirSync(
      iterationArtifactsDir(gates.snapshotter.options.artifactsDir, 'r1', result.iteration),
    );
    expect(logs.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(logs).toContain(`gate-test-1.log`);
  });
});
