/**
 * Every loop the README (and a docs page) shows, run as written, where the README says to run it: the package packed
 * and installed from its tarball into a project of its own (a git repository with a test the
 * stand-in agent gets wrong in its first iteration and right in its second), so that each loop
 * takes its red-gate path and then its green one.
 *
 * - The shell loops run from the project's top level, through `npx --no --`, with nothing but the
 *   user's HOME and git; what they leave in the workspace would be committed by the next `before`.
 * - The workflow loops (a GitHub `run: |` script, a GitLab `- |` item) run as the runners run them
 *   (`bash -eo pipefail`) with `agentgate-snapshot` on PATH, as the Action's setup step (or the
 *   GitLab job's shim) puts it, and `RUN_ID` set.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { installIntoNewProject, npmEnv, packPackage } from '../helpers/package.js';
import { documentedShellLoops, documentedWorkflowLoops } from '../helpers/readme.js';
import { commitAll, git, initRepo, oracleEnv, tempDir, writeFiles } from '../helpers/repo.js';

const work = tempDir('agentgate-readme-loops-');
const project = join(work, 'project');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The user's project: a function, its test (the gate), the task and a stand-in agent. */
const PROJECT_FILES = {
  '.gitignore': 'node_modules/\n',
  'task.md': 'Make add() add its two arguments.\n',
  'add.js': 'module.exports = () => 0;\n',
  'add.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const add = require('./add.js');",
    "test('add adds', () => assert.strictEqual(add(2, 3), 5));",
    '',
  ].join('\n'),
  'run-agent.sh': [
    '#!/bin/sh',
    '# A stand-in agent: a wrong answer in its first iteration, the right one after.',
    'if [ "$1" = 1 ]; then echo "module.exports = (a, b) => a - b;" > add.js',
    'else echo "module.exports = (a, b) => a + b;" > add.js; fi',
    '',
  ].join('\n'),
};

beforeAll(() => {
  const env = npmEnv(work);
  const { tarball } = packPackage(work, env);
  installIntoNewProject(project, tarball, env, {
    scripts: { test: 'node --test --test-reporter=junit --test-reporter-destination=junit.xml' },
  });
  writeFiles(project, PROJECT_FILES);
  chmodSync(join(project, 'run-agent.sh'), 0o755);
}, 300_000);

let count = 0;
/** A fresh copy of the project, committed (as the README asks before the first `before`), and a fresh HOME. */
function freshWorkspace(): { ws: string; env: NodeJS.ProcessEnv; start: string } {
  count++;
  const ws = join(work, `ws-${count}`);
  cpSync(project, ws, { recursive: true, verbatimSymlinks: true });
  initRepo(ws);
  const start = commitAll(ws, 'the project, with agentgate-snapshotter installed');
  const home = join(work, `home-${count}`);
  const env: NodeJS.ProcessEnv = { ...oracleEnv(), ...npmEnv(work), HOME: home };
  for (const key of ['AGENTGATE_HOME', 'AGENTGATE_ARTIFACTS_DIR', 'GITHUB_ACTIONS']) delete env[key];
  return { ws, env, start };
}

function cli(ws: string, env: NodeJS.ProcessEnv, args: string[]): { status: number | null; json: unknown } {
  const res = spawnSync(join(ws, 'node_modules', '.bin', 'agentgate-snapshot'), [...args, '--json'], {
    cwd: ws,
    env,
    encoding: 'utf8',
  });
  return { status: res.status, json: JSON.parse(res.stdout) };
}

const Runs = z.array(z.object({ runId: z.string(), snapshotIds: z.array(z.string()) }));
const Verdicts = z.array(z.object({ iteration: z.number(), verdict: z.string() }));

/**
 * The one run the loop recorded: two iterations, the first rejected by a red gate, the second green,
 * and nothing committed on the branch but the agent's work (no output file of the loop).
 */
function expectRedThenGreen(ws: string, env: NodeJS.ProcessEnv, start: string): string {
  expect(git(ws, ['diff', '--name-only', start, 'HEAD']), 'committed since the start').toBe('add.js');
  const runs = Runs.parse(cli(ws, env, ['runs']).json);
  expect(runs).toHaveLength(1);
  const run = runs[0] as z.infer<typeof Runs>[number];
  expect(run.snapshotIds).toHaveLength(2);
  const verdicts = Verdicts.parse(cli(ws, env, ['gate', 'list', '--run', run.runId]).json);
  expect(verdicts.map((v) => [v.iteration, v.verdict])).toEqual([
    [1, 'fail'],
    [2, 'pass'],
  ]);
  const verify = cli(ws, env, ['verify', '--run', run.runId, '--require-gate', 'test']);
  expect(verify.status, JSON.stringify(verify.json)).toBe(0);
  return run.runId;
}

describe('the loops of the README and docs/, run as written against the installed package', () => {
  it(
    'the shell loops, from the project top level: nothing left in the workspace, red then green',
    { timeout: 300_000 },
    () => {
      const loops = documentedShellLoops();
      expect(loops.map((l) => l.page)).toContain('README.md');
      for (const { page, script } of loops) {
        const { ws, env, start } = freshWorkspace();
        const res = spawnSync('bash', ['-c', script], { cwd: ws, env, encoding: 'utf8' });
        expect(res.status, `${page}:\n${script}\n--- stderr:\n${res.stderr}`).toBe(0);
        const left = git(ws, ['status', '--porcelain', '--untracked-files=all']);
        expect(left, `${page}: left in the workspace`).toBe('');
        expectRedThenGreen(ws, env, start);
      }
    },
  );

  it("the workflow loops, as a runner runs them with the Action's PATH", { timeout: 300_000 }, () => {
    const loops = documentedWorkflowLoops();
    expect(loops.map((l) => l.page)).toEqual(expect.arrayContaining(['README.md', 'docs/ci.md']));
    for (const { page, script } of loops) {
      const { ws, env, start } = freshWorkspace();
      const runEnv = {
        ...env,
        RUN_ID: `gh-${count}-1`,
        PATH: `${join(ws, 'node_modules', '.bin')}${delimiter}${env.PATH ?? ''}`,
      };
      const res = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
        cwd: ws,
        env: runEnv,
        encoding: 'utf8',
      });
      expect(res.status, `${page}:\n${script}\n--- stderr:\n${res.stderr}`).toBe(0);
      expect(expectRedThenGreen(ws, env, start)).toBe(runEnv.RUN_ID);
    }
  });
});
