/**
 * The rest of the library's entry points called from plain JavaScript with what their types do not
 * allow (docs/runs.md): INVALID_ARGUMENT naming the argument in `details.argument`, never a
 * TypeError; an unknown report format, an empty workspace and exit codes, durations and prompt
 * numbers out of their ranges alike.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  AnchorStore,
  anchorDifferences,
  anchorRange,
  appendKeyValues,
  appendStepSummary,
  decideVerdict,
  errorAnnotations,
  formatKeyValues,
  renderDotenv,
  renderMarkdown,
  runDemo,
  sameAnchor,
  toAgentTrace,
  buildRunReport,
  Checkpoints,
  computeAnchor,
  computeTrace,
  Gates,
  GateStore,
  installHooks,
  layout,
  loadConfig,
  openRepo,
  parseJunit,
  provenanceSources,
  renderReport,
  resolveSettings,
  runAgentHook,
  SnapshotStore,
  uninstallHooks,
  verifyAnchor,
  writeCommitStatement,
  writeReport,
} from '../../src/index.js';
import { quiet } from '../helpers/gates.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { fingerprint, newSnapshotter } from '../helpers/snapshotter.js';

/** Calls `fn` as JavaScript would, with whatever arguments (a synchronous throw becomes a rejection). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const js = (fn: (...args: any[]) => unknown, ...args: unknown[]) => Promise.resolve().then(() => fn(...args));

/** The code and the argument a call was refused with (`resolved` when it was not). */
async function refusal(call: () => unknown): Promise<[string, unknown]> {
  try {
    await call();
    return ['resolved', undefined];
  } catch (error) {
    const e = error as { code?: string; details?: { argument?: unknown } };
    return [e.code ?? String(error), e.details?.argument];
  }
}

const refused = (argument: string): [string, string] => ['INVALID_ARGUMENT', argument];

/** A workspace whose run r has one iteration, its Snapshotter and Gates. */
async function oneIteration() {
  const dir = repoWithCommit();
  const s = newSnapshotter();
  await s.captureBeforeState(dir, { runId: 'r' });
  writeFiles(dir, { 'a.txt': 'a\n' });
  const snapshot = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
  return { dir, s, g: new Gates(s), snapshot };
}

describe('library: every public entry point checks its arguments', () => {
  it('hooks install, reports, JUnit, config, layout and the stores', async () => {
    const { dir, s, snapshot } = await oneIteration();
    const home = s.options.home;
    const place = {
      scope: 'project',
      workspace: dir,
      homeDir: tempDir('agentgate-user-'),
      home,
      dryRun: true,
    };
    const out = join(tempDir('agentgate-out-'), 'report.pdf');
    const cases: Array<[() => unknown, string]> = [
      [() => js(installHooks, 'nope', { ...place, runner: { node: 'n', bin: 'b' } }), 'agent'],
      [() => js(installHooks, 'claude-code'), 'opts'],
      [() => js(installHooks, 'claude-code', { ...place, scope: 'galaxy' }), 'opts.scope'],
      [() => js(installHooks, 'claude-code', place), 'opts.runner'],
      [() => js(uninstallHooks, 5, place), 'agent'],
      [() => js(renderReport, s, 'pdf'), 'format'],
      [() => js(writeReport, s, 'pdf', out), 'format'],
      [() => js(renderReport, s, 'md', 5), 'runId'],
      [() => js(renderReport, undefined, 'md'), 'snapshotter'],
      [() => js(writeReport, s, 'md', 5), 'file'],
      [() => js(buildRunReport, s, 5), 'runId'],
      [() => js(parseJunit, 5), 'xml'],
      [() => js(loadConfig), 'opts'],
      [() => js(loadConfig, { home: '' }), 'opts.home'],
      [() => js(layout, 5), 'home'],
      [() => js(layout, ''), 'home'],
      [() => js(() => new SnapshotStore('')), 'home'],
      [() => js(() => new SnapshotStore(5 as never)), 'home'],
      [() => js(() => new SnapshotStore(home, null as never)), 'options'],
      [() => js(() => new SnapshotStore(home, { lockTimeoutMs: 0 })), 'options.lockTimeoutMs'],
      [() => js(() => new GateStore(undefined as never)), 'home'],
      [() => s.streamPatch(snapshot, 5 as never), 'consume'],
    ];
    for (const [call, argument] of cases) expect(await refusal(call)).toEqual(refused(argument));
    expect(existsSync(out)).toBe(false);
    // What the types allow still works.
    expect((await renderReport(s, 'md')).report.run.runId).toBe('r');
    expect((await loadConfig({ home })).identity).toBeUndefined();
    expect(new SnapshotStore(home, {}).home).toBe(home);
    // process.env is no plain object, and is what a caller gives as an environment.
    expect((await resolveSettings({ home, env: process.env })).home).toBe(home);
    const env = { ...place, scope: 'user', env: process.env, runner: { node: 'n', bin: 'b' } };
    expect((await installHooks('codex', env as never)).dryRun).toBe(true);
  });

  it('the exported helpers (report text, GitHub files, verdicts, anchors, demo): INVALID_ARGUMENT, never a TypeError', async () => {
    const { s } = await oneIteration();
    const { report } = await renderReport(s, 'json');
    const file = join(tempDir('agentgate-gh-'), 'out');
    const cases: Array<[() => unknown, string]> = [
      [() => js(runDemo, null), 'opts'],
      [() => js(renderMarkdown, null), 'report'],
      [() => js(renderMarkdown, report, 0), 'limit'],
      [() => js(renderDotenv, {}), 'report.kind'],
      [() => js(formatKeyValues, null), 'values'],
      [() => js(formatKeyValues, { a: 'b' }, 'random'), 'random'],
      [() => js(formatKeyValues, { a: 'b' }, () => ''), 'random()'],
      [() => js(appendKeyValues, file, null), 'values'],
      [() => js(appendKeyValues, undefined, { a: 'b' }), 'file'],
      [() => js(appendStepSummary, file, null), 'markdown'],
      [() => js(errorAnnotations, null), 'checks'],
      [() => js(decideVerdict, null), 'input'],
      [() => js(toAgentTrace, null, { version: '1' }), 'trace'],
      [() => js(anchorDifferences, null, null), 'recorded'],
      [() => js(sameAnchor, {}, {}), 'recorded.commit'],
    ];
    for (const [call, argument] of cases) expect(await refusal(call)).toEqual(refused(argument));
    expect(existsSync(file)).toBe(false);
    // A text that is not JUnit is an AgentgateError too, with its code.
    expect(await refusal(() => js(parseJunit, 'not xml'))).toEqual(['JUNIT_INVALID', undefined]);
    // What the types allow still works.
    expect(renderMarkdown(report)).toMatch(/^## agentgate run `r`/);
    expect(renderDotenv(report)).toMatch(/^AGENTGATE_RUN_ID=r$/m);
    expect(formatKeyValues({ a: 'b' }, () => 'EOF')).toBe('a<<EOF\nb\nEOF\n');
    await appendKeyValues(file, { n: 1 });
    expect(readFileSync(file, 'utf8')).toMatch(/^n<</);
    expect(errorAnnotations([])).toEqual([]);
    const facts = { exitCode: 0, signal: null, timedOut: false, timeoutMs: null, spawnError: null };
    expect(decideVerdict({ ...facts, command: ['true'], junit: null, minTests: null }).verdict).toBe('pass');
  });

  it('provenance: the sources, the repository and each function own arguments', async () => {
    const { dir, s } = await oneIteration();
    const src = provenanceSources(s);
    const repo = await openRepo(dir);
    const cases: Array<[() => unknown, string]> = [
      [() => js(openRepo, 5), 'dir'],
      [() => js(openRepo, ''), 'dir'],
      [() => js(openRepo, dir, { timeoutMs: 0 }), 'opts.timeoutMs'],
      [() => js(provenanceSources, undefined), 'snapshotter'],
      [() => js(computeTrace, src, repo, 5), 'givenPath'],
      [() => js(computeTrace, undefined, repo, 'a.txt'), 'src'],
      [() => js(computeTrace, src, repo, 'a.txt', { runIds: 'r' }), 'opts.runIds'],
      [() => js(computeAnchor, src, repo, 5), 'rev'],
      [() => js(computeAnchor, src, undefined, 'HEAD'), 'repo'],
      [() => js(computeAnchor, src, repo, 'HEAD', { now: 'today' }), 'opts.now'],
      [() => js(anchorRange, src, repo, 5), 'range'],
      [() => js(verifyAnchor, src, repo, 5), 'rev'],
      [() => js(writeCommitStatement, src, repo, 'HEAD', 5), 'file'],
    ];
    for (const [call, argument] of cases) expect(await refusal(call)).toEqual(refused(argument));
    expect((await computeTrace(src, repo, 'a.txt')).ranges.length).toBeGreaterThan(0);
  });

  it("the stores' methods: an id or a commit that is no string is INVALID_ARGUMENT, never a TypeError", async () => {
    const { s } = await oneIteration();
    const home = s.options.home;
    const [snapshots, gates, anchors] = [new SnapshotStore(home), new GateStore(home), new AnchorStore(home)];
    const cases: Array<[() => unknown, string]> = [
      [() => js(() => snapshots.load(5 as never)), 'snapshot id'],
      [() => js(() => snapshots.loadRun(undefined as never)), 'run id'],
      [() => js(() => snapshots.loadByRun(null as never)), 'run id'],
      [() => js(() => snapshots.delete({} as never)), 'snapshot id'],
      [() => js(() => gates.list(5 as never)), 'run id'],
      [() => js(() => gates.load(null as never, 'x')), 'run id'],
      [() => js(() => anchors.load(5 as never)), 'commit'],
      [() => js(() => anchors.save(undefined as never)), 'anchor'],
    ];
    for (const [call, argument] of cases) expect(await refusal(call)).toEqual(refused(argument));
    // What the types allow still works.
    expect((await snapshots.loadRun('r'))?.runId).toBe('r');
    expect(await anchors.load('0'.repeat(40))).toBeNull();
  });
});

describe('library: an empty workspace is refused, never taken for the working directory', () => {
  it('the snapshotter, the gates, the checkpoints: INVALID_ARGUMENT naming workspace; the hook: invalid', async () => {
    const { g, s, snapshot } = await oneIteration();
    const home = s.options.home;
    // Were '' taken for the working directory, it would be this throwaway repository, not the project's.
    const elsewhere = repoWithCommit();
    const untouched = fingerprint(elsewhere);
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(elsewhere);
    onTestFinished(() => cwd.mockRestore());
    const cases: Array<() => unknown> = [
      () => s.captureBeforeState('', { runId: 'e1' }),
      () => s.captureAfterState('', null, { runId: 'e1', iteration: 1 }),
      () => s.iterate('', { runId: 'e1', iteration: 1, agent: { argv: ['true'] } }),
      () => s.stats('', 'HEAD', 'HEAD'),
      () => s.cherryPick('', snapshot.id),
      () => Checkpoints.open('', { home }),
      () => g.record('', { runId: 'r', name: 'n', exitCode: 0 }),
      () => g.run('', { runId: 'r', name: 'n', command: ['true'], echo: quiet() }),
    ];
    for (const call of cases) expect(await refusal(call)).toEqual(refused('workspace'));
    const event = {
      agent: 'claude-code',
      workspace: '',
      session: 's',
      event: 'SessionStart',
      kind: 'baseline',
    };
    expect(await js(runAgentHook, event, { home })).toMatchObject({ status: 'invalid' });
    expect(existsSync(layout(home).checkpoints)).toBe(false);
    expect((await s.store.listRuns()).runs.map((r) => r.runId)).toEqual(['r']);
    expect(fingerprint(elsewhere)).toBe(untouched);
  });
});

describe('library: ranges as the command line has them, each refusal naming its argument', () => {
  it('Gates.record: an exit code from 0 to 999999999 and a duration from 0; a negative stored exit code fails verify', async () => {
    const { dir, g } = await oneIteration();
    const record = (over: object) => g.record(dir, { runId: 'r', name: 'test', exitCode: 1, ...over });
    for (const exitCode of [-1, 1_000_000_000, 1.5])
      expect(await refusal(() => record({ exitCode }))).toEqual(refused('opts.exitCode'));
    for (const durationMs of [-1, 1.5])
      expect(await refusal(() => record({ durationMs }))).toEqual(refused('opts.durationMs'));
    expect((await record({ exitCode: 999_999_999, durationMs: 0 })).durationMs).toBe(0);
    expect((await g.list({ runId: 'r' })).results).toHaveLength(1);
    expect((await g.verify({ runId: 'r' })).ok).toBe(true);

    // A stored verdict with a negative exit code (edited, or recorded by an older version): a failed check.
    const [verdict] = (await g.list({ runId: 'r' })).results;
    const path = g.store.path('r', verdict?.id as string);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"exitCode": 999999999', '"exitCode": -1'));
    const report = await g.verify({ runId: 'r' });
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toContain('gate-verdict');
  });

  it('Gates.run: minTests below 0 or without JUnit files names opts.minTests; prompt numbers name prompt', async () => {
    const { dir, g } = await oneIteration();
    const gate = { runId: 'r', name: 'test', command: ['true'], echo: quiet(), isolated: true };
    expect(await refusal(() => g.run(dir, { ...gate, minTests: -1 }))).toEqual(refused('opts.minTests'));
    expect(await refusal(() => g.run(dir, { ...gate, minTests: 2 }))).toEqual(refused('opts.minTests'));
    expect(await refusal(() => g.run(dir, { ...gate, timeoutMs: 0 }))).toEqual(refused('opts.timeoutMs'));
    expect((await g.list({ runId: 'r' })).results).toEqual([]);

    const cp = await Checkpoints.open(dir, { home: tempDir('agentgate-home-') });
    for (const call of [
      () => cp.beforePrompt('1' as never),
      () => cp.beforePrompt(0),
      () => cp.restorePrompt('2' as never),
    ])
      expect(await refusal(call)).toEqual(refused('prompt'));
    expect(await refusal(() => cp.beforePrompt(1, ''))).toEqual(refused('session'));
  });
});
