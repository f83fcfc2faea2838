/**
 * The GitHub Action as GitHub runs it: the repository's tracked files copied to a directory with
 * no node_modules, INPUT_* and the runner's file variables set, `node action/dist/index.js`; its
 * outputs read by GitHub's rules. And the committed bundle must be what the sources build today.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RunReport } from '../../types/report.js';
import { GateStore } from '../../src/store/gate-store.js';
import { parseGithubFile } from '../helpers/github-files.js';
import { git, oracleEnv, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cleanup: string[] = [];
afterAll(() => {
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

/** A failed `test` verdict of iteration 1 of `runId`, whose after commit is `afterSha`, as `gate record` writes it. */
function recordFailure(home: string, repo: string, runId: string, afterSha: string) {
  return new GateStore(home).append({
    runId,
    iteration: 1,
    name: 'test',
    treeId: git(repo, ['rev-parse', `${afterSha}^{tree}`]),
    afterSha,
    command: null,
    observed: false,
    isolated: false,
    startedAt: new Date().toISOString(),
    durationMs: 10,
    exitCode: 1,
    signal: null,
    timedOut: false,
    verdict: 'fail',
    reason: 'exit 1',
    tests: null,
    log: null,
    replayOf: null,
  });
}

describe('the GitHub Action', () => {
  it('the committed bundle is what action/build.mjs makes from the sources (run `npm run build:action`)', () => {
    const out = tempDir('agentgate-action-build-');
    cleanup.push(out);
    const res = spawnSync(process.execPath, [join(ROOT, 'action', 'build.mjs'), '--out', out], {
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    for (const name of ['index.js', 'cli.js']) {
      const fresh = readFileSync(join(out, name));
      const committed = readFileSync(join(ROOT, 'action', 'dist', name));
      expect(
        fresh.equals(committed),
        `action/dist/${name} is stale: run npm run build:action and commit it`,
      ).toBe(true);
    }
  });

  it('runs from the tracked files alone: setup, an agent loop through the PATH shim, finish with report and outputs', async () => {
    // A copy of what a checkout of the action holds: tracked files only, no node_modules, no dist/.
    const action = tempDir('agentgate-action-copy-');
    const runner = tempDir('agentgate-runner-');
    const repo = repoWithCommit({ 'app.txt': 'v1\n' });
    cleanup.push(action, runner, repo);
    for (const file of git(ROOT, ['ls-files', '-z']).split('\0').filter(Boolean)) {
      if (!existsSync(join(ROOT, file))) continue;
      mkdirSync(dirname(join(action, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(action, file));
    }
    expect(existsSync(join(action, 'node_modules'))).toBe(false);
    expect(existsSync(join(action, 'action', 'dist', 'index.js'))).toBe(true);
    expect(readFileSync(join(action, 'action.yml'), 'utf8')).toMatch(
      /using: node24\n\s+main: action\/dist\/index\.js/,
    );

    const temp = join(runner, 'temp');
    mkdirSync(temp);
    const files = {
      GITHUB_OUTPUT: join(runner, 'output'),
      GITHUB_ENV: join(runner, 'env'),
      GITHUB_PATH: join(runner, 'path'),
      GITHUB_STEP_SUMMARY: join(runner, 'summary'),
    };
    const base: NodeJS.ProcessEnv = {
      ...oracleEnv(),
      GITHUB_ACTIONS: 'true',
      RUNNER_TEMP: temp,
      GITHUB_WORKSPACE: repo,
      AGENTGATE_HOME: '',
      NO_COLOR: '1',
    };
    const step = (
      env: NodeJS.ProcessEnv,
      argv: string[] = [join(action, 'action', 'dist', 'index.js')],
      cmd = process.execPath,
    ) => {
      for (const f of Object.values(files)) writeFileSync(f, ''); // every step gets fresh files, as on a runner
      const res = spawnSync(cmd, argv, { cwd: repo, env: { ...base, ...files, ...env }, encoding: 'utf8' });
      return {
        ...res,
        outputs: parseGithubFile(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
        env: parseGithubFile(readFileSync(files.GITHUB_ENV, 'utf8')),
      };
    };

    // Step 1: the action, mode setup (input names as GitHub passes them).
    const setup = step({ INPUT_MODE: 'setup' });
    expect(setup.status, setup.stdout + setup.stderr).toBe(0);
    const bin = readFileSync(files.GITHUB_PATH, 'utf8').trim();
    expect(bin).toBe(join(temp, 'agentgate-bin'));
    const home = setup.env.AGENTGATE_HOME as string;
    expect(home).toBe(join(temp, 'agentgate-home'));
    expect(setup.outputs).toEqual({ home, 'bin-path': bin });

    // Steps 2..: the agent loop, calling the CLI through PATH as a workflow's `run:` would.
    const later = { PATH: `${bin}:${process.env.PATH ?? ''}`, AGENTGATE_HOME: home };
    const task = 'Implement the feature\nwith = signs: a=b\n\nand blank lines';
    expect(step(later, ['-c', 'agentgate-snapshot before --run ci-run'], '/bin/sh').status).toBe(0);
    writeFiles(repo, { 'app.txt': 'v2\n', 'new.txt': 'new\n' });
    const after = step(
      { ...later, TASK: task },
      ['-c', 'agentgate-snapshot after --run ci-run --iteration 1 --task "$TASK" --gate "npm test"'],
      '/bin/sh',
    );
    expect(after.status, after.stderr).toBe(0);
    expect(after.outputs).toMatchObject({
      'files-changed': '2',
      insertions: '2',
      deletions: '1',
      task,
      'run-id': 'ci-run',
      iteration: '1',
    });
    expect(after.outputs['after-sha']).toBe(git(repo, ['rev-parse', 'HEAD']));
    expect(existsSync(after.outputs['patch-path'] as string)).toBe(true);

    // Last step: the action, mode finish.
    const finish = step({
      ...later,
      INPUT_MODE: 'finish',
      'INPUT_REPORT-FORMAT': 'html',
      INPUT_SUMMARY: 'true',
    });
    expect(finish.status, finish.stdout + finish.stderr).toBe(0);
    expect(finish.outputs).toMatchObject({
      'run-id': 'ci-run',
      verified: 'true',
      'bundle-path': '',
      'artifacts-path': join(home, 'artifacts', 'ci-run'),
    });
    const report = readFileSync(finish.outputs['report-path'] as string, 'utf8');
    expect(report).toMatch(/^<!doctype html>/);
    expect(report).toContain('Implement the feature');
    expect(report).toContain('Diff2Html'); // the renderer is inlined by the bundle, not read from node_modules
    expect(readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')).toContain('## agentgate run `ci-run`');

    const json = step({
      ...later,
      INPUT_MODE: 'finish',
      'INPUT_REPORT-FORMAT': 'json',
      INPUT_SUMMARY: 'false',
      INPUT_VERIFY: 'false',
    });
    expect(json.status, json.stderr).toBe(0);
    expect(
      RunReport.parse(JSON.parse(readFileSync(json.outputs['report-path'] as string, 'utf8'))).snapshots,
    ).toHaveLength(1);

    // A failed gate: one annotation, named in failed-gates, and the step fails with fail-on-gate.
    const afterSha = after.outputs['after-sha'] as string;
    await recordFailure(home, repo, 'ci-run', afterSha);
    const gated = step({
      ...later,
      INPUT_MODE: 'finish',
      'INPUT_REPORT-FORMAT': 'none',
      INPUT_VERIFY: 'false',
      'INPUT_FAIL-ON-GATE': 'true',
    });
    expect(gated.status).toBe(1);
    expect(gated.outputs['failed-gates']).toBe('test');
    const annotations = `${gated.stdout}${gated.stderr}`.match(
      /^::error title=agentgate gate test%3A fail::/gm,
    );
    expect(annotations).toHaveLength(1);
    expect(gated.stdout).toMatch(/^::error title=agentgate::the newest verdict of gate\(s\) test /m);
    // With no summary and no report file, the action annotates the gate itself, once.
    const bare = step({
      ...later,
      INPUT_MODE: 'finish',
      'INPUT_REPORT-FORMAT': 'none',
      INPUT_SUMMARY: 'false',
      INPUT_VERIFY: 'false',
    });
    expect(bare.status, bare.stdout + bare.stderr).toBe(0);
    expect(
      `${bare.stdout}${bare.stderr}`.match(/^::error title=agentgate gate test%3A fail::/gm),
    ).toHaveLength(1);
    // A summary that cannot be written annotates nothing: the report file's call does, once.
    const lost = step({
      ...later,
      INPUT_MODE: 'finish',
      INPUT_VERIFY: 'false',
      GITHUB_STEP_SUMMARY: join(runner, 'no', 'summary'),
    });
    expect(lost.status).toBe(1);
    expect(
      `${lost.stdout}${lost.stderr}`.match(/^::error title=agentgate gate test%3A fail::/gm),
    ).toHaveLength(1);

    // artifacts-path is where the CLI puts the run's artifacts: the home's config counts.
    writeFileSync(join(home, 'config.yaml'), `artifactsDir: ${join(runner, 'art')}\n`);
    const configured = step({
      ...later,
      INPUT_MODE: 'finish',
      'INPUT_REPORT-FORMAT': 'none',
      INPUT_VERIFY: 'false',
    });
    expect(configured.outputs['artifacts-path']).toBe(join(runner, 'art', 'ci-run'));
    rmSync(join(home, 'config.yaml'));

    // Publishing without a remote fails the step clearly, as an annotation.
    const publish = step({ ...later, INPUT_MODE: 'finish', INPUT_PUBLISH: 'true', INPUT_REMOTE: 'nowhere' });
    expect(publish.status).toBe(1);
    expect(publish.stdout).toMatch(/^::error title=agentgate::push failed: [A-Z_]+: /m);
    // ...yet every file written is an output all the same: the workflow uploads them when the job fails.
    expect(publish.outputs).toMatchObject({ 'run-id': 'ci-run', verified: 'true' });
    expect(readFileSync(publish.outputs['report-path'] as string, 'utf8')).toMatch(/^<!doctype html>/);
    const bundle = join(temp, 'agentgate-out', 'agentgate-ci-run.bundle');
    const failing = {
      ...later,
      INPUT_MODE: 'finish',
      INPUT_BUNDLE: 'true',
      INPUT_PUBLISH: 'true',
      INPUT_REMOTE: 'nowhere',
    };
    expect(step(failing).outputs['bundle-path']).toBe(bundle);
    // An export that fails too (a directory where the bundle goes): each failure said, the report still an output.
    rmSync(bundle);
    mkdirSync(bundle);
    const both = step(failing);
    expect(both.status).toBe(1);
    expect(both.stdout).toMatch(
      /^::error title=agentgate::export failed: [A-Z_]+: .*; push failed: [A-Z_]+: /m,
    );
    expect(both.outputs['bundle-path']).toBe('');
    expect(existsSync(both.outputs['report-path'] as string)).toBe(true);
    rmSync(bundle, { recursive: true });
    // A mistyped flag fails finish before anything is run or written (its output-dir is not made).
    const fresh = join(runner, 'fresh-out');
    const maybe = step({ ...later, INPUT_MODE: 'finish', INPUT_VERIFY: 'maybe', 'INPUT_OUTPUT-DIR': fresh });
    expect(maybe.status).toBe(1);
    expect(maybe.stdout).toMatch(/^::error title=agentgate::input verify must be true or false/m);
    expect(maybe.outputs).toEqual({});
    expect(existsSync(fresh)).toBe(false);
    const bad = step({ INPUT_MODE: 'teardown' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^::error title=agentgate::input mode must be setup, finish or anchor/m);
  });

  it('finish on a home with a damaged run record or verdict fails the step with STORE_CORRUPT, judging nothing', async () => {
    const runner = tempDir('agentgate-runner-');
    const repo = repoWithCommit({ 'app.txt': 'v1\n' });
    cleanup.push(runner, repo);
    const home = join(runner, 'home');
    const output = join(runner, 'output');
    const cliIn = (args: string[]) =>
      spawnSync(
        process.execPath,
        [join(ROOT, 'action', 'dist', 'cli.js'), '-C', repo, '--home', home, ...args],
        {
          env: { ...oracleEnv(), NO_COLOR: '1' },
          encoding: 'utf8',
        },
      );
    for (const [runId, text] of [
      ['r1', 'v2\n'],
      ['s2', 'v3\n'],
    ] as const) {
      expect(cliIn(['before', '--run', runId]).status).toBe(0);
      writeFiles(repo, { 'app.txt': text });
      expect(cliIn(['after', '--run', runId, '--iteration', '1']).status).toBe(0);
    }
    const finish = (env: NodeJS.ProcessEnv) => {
      writeFileSync(output, '');
      const res = spawnSync(process.execPath, [join(ROOT, 'action', 'dist', 'index.js')], {
        cwd: repo,
        env: {
          ...oracleEnv(),
          GITHUB_ACTIONS: 'true',
          GITHUB_OUTPUT: output,
          GITHUB_WORKSPACE: repo,
          RUNNER_TEMP: runner,
          AGENTGATE_HOME: home,
          NO_COLOR: '1',
          INPUT_MODE: 'finish',
          'INPUT_REPORT-FORMAT': 'none',
          ...env,
        },
        encoding: 'utf8',
      });
      return { ...res, outputs: parseGithubFile(readFileSync(output, 'utf8')) };
    };
    // The newest run's record damaged: the run to judge cannot be known (not the older one instead).
    writeFileSync(join(home, 'runs', 's2.json'), '{');
    const noRun = finish({});
    expect(noRun.status).toBe(1);
    expect(noRun.stdout).toMatch(/^::error title=agentgate::report failed: STORE_CORRUPT: /m);
    expect(noRun.outputs).toEqual({});
    // A failed verdict whose file is damaged: the step fails rather than passing on the rest.
    const verdict = await recordFailure(
      home,
      repo,
      'r1',
      git(repo, ['rev-parse', 'refs/agentgate/runs/r1/iteration-1']),
    );
    writeFileSync(new GateStore(home).path('r1', verdict.id), '{"truncated');
    const damaged = finish({ 'INPUT_RUN-ID': 'r1' });
    expect(damaged.status).toBe(1);
    expect(damaged.stdout).toMatch(/^::error title=agentgate::report failed: STORE_CORRUPT: /m);
    expect(damaged.outputs).toEqual({});
  });

  it('mode anchor: on a push to main after a squash merge, fetches the runs, anchors the push, publishes the anchor', () => {
    const root = tempDir('agentgate-action-anchor-');
    cleanup.push(root);
    const origin = join(root, 'origin.git');
    const seed = repoWithCommit({ 'app.txt': 'v1\n' });
    cleanup.push(seed);
    git(root, ['clone', '-q', '--bare', seed, origin]);
    const dev = join(root, 'dev');
    git(root, ['clone', '-q', origin, dev]);
    const cliIn = (dir: string, home: string, args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'action', 'dist', 'cli.js'), '-C', dir, ...args], {
        env: { ...oracleEnv(), AGENTGATE_HOME: home, NO_COLOR: '1' },
        encoding: 'utf8',
      });
    // The agent's job: a run on a branch, published; then the pull request is squash-merged.
    const devHome = join(root, 'dev-home');
    git(dev, ['checkout', '-q', '-b', 'agent']);
    expect(cliIn(dev, devHome, ['before', '--run', 'ci-run']).status).toBe(0);
    writeFiles(dev, { 'app.txt': 'v1\nv2\n', 'new.txt': 'one\ntwo\n' });
    expect(cliIn(dev, devHome, ['after', '--run', 'ci-run', '--iteration', '1']).status).toBe(0);
    expect(cliIn(dev, devHome, ['push']).status).toBe(0);
    const before = git(dev, ['rev-parse', 'main']);
    git(dev, ['checkout', '-q', 'main']);
    git(dev, ['merge', '--squash', '-q', 'agent']);
    git(dev, ['commit', '-q', '-m', 'squash']);
    const after = git(dev, ['rev-parse', 'HEAD']);
    git(dev, ['push', '-q', 'origin', 'main']);

    // The anchor job: a fresh runner, a full clone of main, the push event.
    const ci = join(root, 'ci');
    git(root, ['clone', '-q', origin, ci]);
    const runner = join(root, 'runner');
    mkdirSync(runner);
    const files = {
      GITHUB_OUTPUT: join(runner, 'output'),
      GITHUB_STEP_SUMMARY: join(runner, 'summary'),
      GITHUB_EVENT_PATH: join(runner, 'event.json'),
    };
    writeFileSync(files.GITHUB_EVENT_PATH, JSON.stringify({ ref: 'refs/heads/main', before, after }));
    const step = (env: NodeJS.ProcessEnv) => {
      for (const f of [files.GITHUB_OUTPUT, files.GITHUB_STEP_SUMMARY]) writeFileSync(f, '');
      const res = spawnSync(process.execPath, [join(ROOT, 'action', 'dist', 'index.js')], {
        cwd: ci,
        env: {
          ...oracleEnv(),
          ...files,
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: ci,
          RUNNER_TEMP: runner,
          AGENTGATE_HOME: '',
          NO_COLOR: '1',
          INPUT_MODE: 'anchor',
          ...env,
        },
        encoding: 'utf8',
      });
      return { ...res, outputs: parseGithubFile(readFileSync(files.GITHUB_OUTPUT, 'utf8')) };
    };
    // A mistyped input fails the step before any work: nothing fetched, anchored or published, no output.
    for (const bad of [
      { 'INPUT_MIN-COVERAGE': 'abc' },
      { 'INPUT_MIN-COVERAGE': '0x32' },
      { INPUT_PUBLISH: 'maybe' },
    ]) {
      const refused = step(bad);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toMatch(/^::error title=agentgate::input (min-coverage|publish) must be /m);
      expect(refused.outputs).toEqual({});
      expect(readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')).toBe('');
      for (const made of ['agentgate-home', 'agentgate-out'])
        expect(existsSync(join(runner, made))).toBe(false);
    }
    expect(git(origin, ['for-each-ref', 'refs/agentgate/anchors/'])).toBe('');
    const first = step({});
    expect(first.status, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({
      commits: after,
      runs: 'ci-run',
      files: '2',
      'files-from-runs': '2',
      'lines-added': '3',
      'lines-from-runs': '3',
      coverage: '100',
    });
    expect(readFileSync(first.outputs['report-path'] as string, 'utf8')).toContain(after);
    expect(readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')).toContain(
      `## agentgate anchor \`${after.slice(0, 12)}\``,
    );
    const published = git(origin, ['rev-parse', `refs/agentgate/anchors/${after}`]);
    // Repeated (a re-run of the job): harmless, the published anchor stays as it was.
    expect(step({}).status).toBe(0);
    expect(git(origin, ['rev-parse', `refs/agentgate/anchors/${after}`])).toBe(published);
    // The anchor travels: the developer's machine fetches it and it verifies there.
    expect(cliIn(dev, devHome, ['fetch', '--json']).status).toBe(0);
    expect(cliIn(dev, devHome, ['verify', '--anchor', after]).status).toBe(0);

    // A person's commit: below min-coverage, the step fails with an annotation.
    writeFiles(dev, { 'notes.md': 'mine\n' });
    git(dev, ['add', '-A']);
    git(dev, ['commit', '-q', '-m', 'person']);
    git(dev, ['push', '-q', 'origin', 'main']);
    git(ci, ['pull', '-q', '--ff-only']);
    const low = step({ INPUT_COMMIT: 'HEAD', 'INPUT_MIN-COVERAGE': ' 50\n', INPUT_PUBLISH: 'false' });
    expect(low.status).toBe(1);
    expect(low.outputs).toMatchObject({ coverage: '0', runs: '' });
    expect(low.stdout).toMatch(
      /^::error title=agentgate::0 of 1 added lines \(0%25\) come from recorded runs/m,
    );
  });
});
