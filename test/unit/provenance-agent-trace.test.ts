import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AgentTraceRecord, type Trace } from '../../types/anchor.js';
import { toAgentTrace } from '../../src/provenance/agent-trace.js';

const schema = JSON.parse(
  readFileSync(new URL('../../fixtures/agent-trace/trace-record.schema.json', import.meta.url), 'utf8'),
);
const example = JSON.parse(
  readFileSync(new URL('../../fixtures/agent-trace/example-6.2.json', import.meta.url), 'utf8'),
);
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

const sha = 'a'.repeat(40);
const trace: Trace = {
  path: 'src/a b.ts',
  rev: sha,
  ranges: [
    { start: 1, end: 2, commit: sha, origin: null, alsoIn: [] },
    {
      start: 3,
      end: 4,
      commit: sha,
      origin: {
        runId: 'run-a',
        iteration: 2,
        snapshotId: 'snap1',
        afterSha: 'b'.repeat(40),
        gates: [{ name: 'test', verdict: 'pass' }],
      },
      alsoIn: ['run-b'],
    },
    {
      start: 5,
      end: 5,
      commit: sha,
      origin: { runId: 'run-a', iteration: 0, snapshotId: 'snap1', afterSha: 'c'.repeat(40), gates: [] },
      alsoIn: [],
    },
  ],
};

describe('trace --format agent-trace', () => {
  it("the specification's own 0.1.0 example validates against its section 6.1 schema", () => {
    const validate = validator();
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });

  it('our record validates against the section 6.1 schema and our own zod schema', () => {
    const record = toAgentTrace(trace, { version: '0.1.0' }, new Date('2026-11-27T00:00:00Z'));
    const validate = validator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(AgentTraceRecord.safeParse(record).success).toBe(true);
    expect(record.version).toBe('0.1.0');
    expect(record.vcs).toEqual({ type: 'git', revision: sha });
    const conversations = record.files[0]?.conversations ?? [];
    expect(conversations.map((c) => [c.contributor?.type, c.ranges])).toEqual([
      ['ai', [{ start_line: 3, end_line: 4 }]],
      ['unknown', [{ start_line: 5, end_line: 5 }]],
    ]);
  });

  it('the schema rejects what the specification forbids (a check that the validator validates)', () => {
    const record = toAgentTrace(trace, { version: '0.1.0' });
    const validate = validator();
    expect(validate({ ...record, id: 'not-a-uuid' })).toBe(false);
    expect(
      validate({
        ...record,
        files: [{ path: 'x', conversations: [{ ranges: [{ start_line: 0, end_line: 1 }] }] }],
      }),
    ).toBe(false);
  });
});
