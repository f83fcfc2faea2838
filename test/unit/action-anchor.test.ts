import { execFileSync } from 'node:child_process';
/** The Action's mode anchor: which commits it anchors, from its inputs or the event GitHub describes. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { anchor, anchorTarget, type ActionIo } from '../../action/src/anchor.js';

const dir = mkdtempSync(join(tmpdir(), 'agentgate-action-anchor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const M = 'c'.repeat(40);

function target(
  inputs: Record<string, string>,
  event: unknown,
  env: NodeJS.ProcessEnv = {},
): string[] | null {
  const path = join(dir, `event-${Math.random().toString(36).slice(2)}.json`);
  if (event !== undefined) writeFileSync(path, typeof event === 'string' ? event : JSON.stringify(event));
  return anchorTarget(
    { input: (name, fallback = '') => inputs[name] ?? fallback, fail: (message) => new Error(message) },
    { ...env, ...(event === undefined ? {} : { GITHUB_EVENT_PATH: path }) },
  );
}

/** The Action's io with our CLI's JSON answers given by `answer`; records the calls and the outputs. */
function stubIo(inputs: Record<string, string>, summary: string, answer: (args: string[]) => unknown) {
  const stub = { calls: [] as string[][], outputs: {} as Record<string, string>, io: {} as ActionIo };
  stub.io = {
    input: (name, fallback = '') => inputs[name] ?? fallback,
    flag: (name, fallback) => {
      const value = inputs[name] ?? String(fallback);
      if (value !== 'true' && value !== 'false') throw new Error(`input ${name}`);
      return value === 'true';
    },
    cli: () => ({ status: 0, stdout: '' }),
    cliJson: (args) => {
      stub.calls.push(args);
      return answer(args);
    },
    setOutputs: async (values) => {
      stub.outputs = values;
    },
    stepSummary: summary,
    outputDir: dir,
    fail: (message) => new Error(message),
  };
  return stub;
}

describe('mode anchor: what it anchors', () => {
  it('a push: every commit of before..after', () => {
    expect(target({}, { before: A, after: B })).toEqual(['--range', `${A}..${B}`]);
  });
  it("a new branch's push (before all zeros): its last commit", () => {
    expect(target({}, { before: '0'.repeat(40), after: B })).toEqual([B]);
  });
  it('a merged pull request: its merge commit; one closed unmerged or still open: nothing', () => {
    expect(target({}, { action: 'closed', pull_request: { merged: true, merge_commit_sha: M } })).toEqual([
      M,
    ]);
    expect(
      target(
        {},
        { action: 'closed', pull_request: { merged: false, merge_commit_sha: M } },
        { GITHUB_SHA: A },
      ),
    ).toBeNull();
    expect(
      target({}, { action: 'synchronize', pull_request: { merge_commit_sha: M } }, { GITHUB_SHA: A }),
    ).toBeNull();
  });
  it('the range and commit inputs win over the event', () => {
    expect(target({ range: 'v1..v2' }, { before: A, after: B })).toEqual(['--range', 'v1..v2']);
    expect(target({ commit: 'HEAD~1' }, { before: A, after: B })).toEqual(['HEAD~1']);
  });
  it('no event, or one that is not JSON: GITHUB_SHA, else HEAD', () => {
    expect(target({}, undefined, { GITHUB_SHA: A })).toEqual([A]);
    expect(target({}, 'not json')).toEqual(['HEAD']);
  });
});

describe('mode anchor: a push that brought no new first-parent commit', () => {
  it('anchors nothing and passes: empty outputs, a summary line, no report and nothing pushed, min-coverage met', async () => {
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const stub = stubIo({ range: `${A}..${A}`, 'min-coverage': '80' }, summary, (args) =>
      args[0] === 'anchor' ? [] : {},
    );
    await anchor(stub.io, {});
    expect(stub.calls.map((c) => c[0])).toEqual(['fetch', 'anchor']);
    expect(stub.outputs).toEqual({
      commits: '',
      runs: '',
      files: '0',
      'files-from-runs': '0',
      'lines-added': '0',
      'lines-from-runs': '0',
      coverage: '',
      'report-path': '',
    });
    expect(readFileSync(summary, 'utf8')).toMatch(/No new first-parent commit to anchor/);
  });
});

describe("mode anchor: the summary line of a push that anchored nothing, in another step's step summary", () => {
  it('starts a line of its own after an unended one, and a FIFO nobody reads fails the step at once', async () => {
    const summary = join(dir, 'summary-unended.md');
    writeFileSync(summary, '# an earlier step'); // no final line break
    const none = (args: string[]) => (args[0] === 'anchor' ? [] : {});
    await anchor(stubIo({ range: `${A}..${A}` }, summary, none).io, {});
    expect(readFileSync(summary, 'utf8')).toMatch(/^# an earlier step\n## agentgate anchor\n/);
    const fifo = join(dir, 'summary.fifo');
    execFileSync('mkfifo', [fifo]);
    const stub = stubIo({ range: `${A}..${A}` }, fifo, none);
    await expect(anchor(stub.io, {})).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    // The outputs were set before the summary: an upload step still finds them.
    expect(stub.outputs).toMatchObject({ commits: '', 'report-path': '' });
  });
});

describe('mode anchor: a pull request closed without merging', () => {
  it('anchors nothing: no anchor, report or push, empty outputs, a summary line that says why', async () => {
    const summary = join(dir, 'summary-unmerged.md');
    writeFileSync(summary, '');
    const event = join(dir, 'event-unmerged.json');
    writeFileSync(
      event,
      JSON.stringify({ action: 'closed', pull_request: { merged: false, merge_commit_sha: M } }),
    );
    const stub = stubIo({}, summary, () => ({}));
    await anchor(stub.io, { GITHUB_EVENT_PATH: event, GITHUB_SHA: M });
    expect(stub.calls.map((c) => c[0])).toEqual(['fetch']);
    expect(stub.outputs).toMatchObject({ commits: '', 'report-path': '' });
    expect(readFileSync(summary, 'utf8')).toMatch(/not merged/);
  });
});

describe('mode anchor: a forced push whose before commit this clone lacks', () => {
  const missing = () =>
    Object.assign(new Error('anchor failed: REVISION_NOT_FOUND'), { code: 'REVISION_NOT_FOUND' });
  const doc = {
    commit: B,
    coverage: { files: 1, filesFromRuns: 0, linesAdded: 1, linesFromRuns: 0 },
    runs: [],
  };
  function pushed(event: unknown) {
    const path = join(dir, `event-forced-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(event));
    const stub = stubIo({ summary: 'false', publish: 'false' }, join(dir, 'summary-forced.md'), (args) => {
      if (args[0] === 'anchor' && args[1] === '--range') throw missing();
      return args[0] === 'anchor' ? [doc] : {};
    });
    return { stub, env: { GITHUB_EVENT_PATH: path } };
  }

  it('anchors its last commit, as a new branch is, with a notice', async () => {
    const notice = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const { stub, env } = pushed({ before: A, after: B, forced: true });
      await anchor(stub.io, env);
      expect(stub.calls.filter((c) => c[0] === 'anchor')).toEqual([
        ['anchor', '--range', `${A}..${B}`],
        ['anchor', B],
      ]);
      expect(stub.outputs).toMatchObject({ commits: B, 'lines-added': '1' });
      expect(String(notice.mock.calls[0]?.[0])).toMatch(/^::notice /);
    } finally {
      notice.mockRestore();
    }
  });

  it('a push that is not forced (a shallow clone lacks before) still fails: one commit of many is not anchored', async () => {
    const { stub, env } = pushed({ before: A, after: B });
    await expect(anchor(stub.io, env)).rejects.toMatchObject({ code: 'REVISION_NOT_FOUND' });
    expect(stub.calls.filter((c) => c[0] === 'anchor')).toHaveLength(1);
  });
});

describe('mode anchor: a push that fails', () => {
  it('still sets every output, the report path among them, before the step fails', async () => {
    const stub = stubIo({ range: `${A}..${B}` }, join(dir, 'summary-push.md'), (args) => {
      if (args[0] === 'push') throw new Error('PUSH_REJECTED');
      return args[0] === 'anchor'
        ? [{ commit: B, coverage: { files: 1, filesFromRuns: 1, linesAdded: 2, linesFromRuns: 1 }, runs: [] }]
        : {};
    });
    await expect(anchor(stub.io, {})).rejects.toThrow('PUSH_REJECTED');
    expect(stub.outputs).toMatchObject({
      commits: B,
      coverage: '50',
      'report-path': join(dir, `agentgate-anchor-${B}.html`),
    });
  });
});

describe('mode anchor: the step summary stays within 1 MiB', () => {
  function anchorIo(inputs: Record<string, string>, summary: string, appended: string[]) {
    return stubIo(inputs, summary, (args) => {
      if (args[0] === 'anchor')
        return Array.from({ length: 5 }, (_, i) => ({
          commit: String(i).repeat(40),
          coverage: { files: 1, filesFromRuns: 1, linesAdded: 1, linesFromRuns: 1 },
          runs: [],
        }));
      if (args[0] === 'report' && args.includes('md')) return { appended: appended.shift() ?? 'whole' };
      return {};
    });
  }
  const sections = (calls: string[][]) => calls.filter((c) => c[0] === 'report' && c.includes('md')).length;

  it('a section that did not fit whole (cut, a note, nothing) is the last: the anchors after it get none', async () => {
    const summary = join(dir, 'summary-cut.md');
    writeFileSync(summary, '');
    const { io, calls } = anchorIo({ range: `${A}..${B}` }, summary, ['whole', 'cut']);
    await anchor(io, {});
    expect(sections(calls)).toBe(2);
    const all = anchorIo({ range: `${A}..${B}` }, summary, []);
    await anchor(all.io, {});
    expect(sections(all.calls)).toBe(5);
  });

  it('"No new first-parent commit" is not appended to a full summary', async () => {
    const summary = join(dir, 'summary-full.md');
    writeFileSync(summary, 'x'.repeat(1024 * 1024 - 10));
    const { io } = anchorIo({ range: `${A}..${A}` }, summary, []);
    io.cliJson = (args) => (args[0] === 'anchor' ? [] : {});
    await anchor(io, {});
    expect(readFileSync(summary, 'utf8')).toBe('x'.repeat(1024 * 1024 - 10));
  });
});

describe('mode anchor: its inputs are checked before any work', () => {
  const anchored = (inputs: Record<string, string>) =>
    stubIo({ range: `${A}..${B}`, ...inputs }, join(dir, 'summary-inputs.md'), (args) =>
      args[0] === 'anchor'
        ? [{ commit: B, coverage: { files: 1, filesFromRuns: 1, linesAdded: 2, linesFromRuns: 1 }, runs: [] }]
        : {},
    );

  it.each(['abc', '0x32', '1e1', '5.0', '-1', '+5', '101', '1'.repeat(400), '5 0'])(
    'min-coverage %j: refused, with no fetch, no anchor, no push and no outputs',
    async (value) => {
      const stub = anchored({ 'min-coverage': value });
      await expect(anchor(stub.io, {})).rejects.toThrow(/min-coverage/);
      expect(stub.calls).toEqual([]);
      expect(stub.outputs).toEqual({});
    },
  );

  it.each([
    ['commit', '-V'],
    ['commit', '--help'],
    ['commit', 'a b'],
    ['range', 'not a range'],
    ['range', '--upload-pack=x..y'],
    ['range', 'HEAD'],
  ])('input %s %j: refused before the fetch (no option, one word, a range has ..)', async (name, value) => {
    const stub = anchored({ range: '', [name]: value });
    await expect(anchor(stub.io, {})).rejects.toThrow(name);
    expect(stub.calls).toEqual([]);
    expect(stub.outputs).toEqual({});
  });

  it('a mistyped publish, summary or fetch flag: refused before the fetch', async () => {
    for (const name of ['publish', 'summary', 'fetch']) {
      const stub = anchored({ [name]: 'maybe' });
      await expect(anchor(stub.io, {})).rejects.toThrow(name);
      expect(stub.calls).toEqual([]);
    }
  });

  it('min-coverage as decimal digits from 0 to 100: the bound checked after the anchors are published', async () => {
    for (const [value, passes] of [
      ['0', true],
      ['050', true],
      ['51', false],
      ['100', false],
    ] as const) {
      const stub = anchored({ 'min-coverage': value });
      const run = anchor(stub.io, {});
      await (passes
        ? expect(run).resolves.toBeUndefined()
        : expect(run).rejects.toThrow(/below min-coverage/));
      expect(stub.calls.map((c) => c[0])).toEqual(['fetch', 'anchor', 'report', 'report', 'push']);
      expect(stub.outputs.coverage).toBe('50');
    }
  });
});
