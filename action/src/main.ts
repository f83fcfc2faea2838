/**
 * The GitHub Action (bundled into action/dist/index.js; action.yml runs it on node24).
 *
 * mode: setup   puts `agentgate-snapshot` on PATH (a shim in $RUNNER_TEMP running the bundled CLI)
 *               and exports AGENTGATE_HOME (under $RUNNER_TEMP) to the job's later steps.
 * mode: finish  verifies the run (failed checks become annotations), writes the step summary and
 *               the report (a gate whose newest verdict failed becomes an annotation), optionally
 *               fails on a failed gate, publishes the run (`push`) and writes a bundle (`export`),
 *               and sets outputs for actions/upload-artifact.
 * mode: anchor  on a push to the default branch or a merged pull request: fetches runs and
 *               anchors, anchors the new commits, publishes the anchors (see anchor.ts).
 * Inputs arrive as INPUT_<NAME> (upper-cased, spaces as _); outputs and environment go through
 * plain appends to $GITHUB_OUTPUT, $GITHUB_ENV and $GITHUB_PATH.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendKeyValues, appendPath, escapeData } from '../../src/ci/github.js';
import { gateAnnotations } from '../../src/report/gates.js';
import type { ReportGates } from '../../types/report-gates.js';
import { anchor } from './anchor.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, 'cli.js');
const FORMATS = ['html', 'md', 'json', 'dotenv', 'none'];
const EXTENSIONS: Record<string, string> = { html: 'html', md: 'md', json: 'json', dotenv: 'env' };

class ActionFailure extends Error {
  /** The CLI's error code, when the failure is a CLI command's. */
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

function input(name: string, fallback = ''): string {
  const value = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

function flag(name: string, fallback: boolean): boolean {
  const value = input(name, String(fallback)).toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ActionFailure(`input ${name} must be true or false, not ${JSON.stringify(value)}`);
}

function envFile(name: string): string | null {
  const value = process.env[name];
  return value ? value : null;
}

async function setOutputs(values: Record<string, string>): Promise<void> {
  const file = envFile('GITHUB_OUTPUT');
  if (file) await appendKeyValues(file, values);
}

function runnerTemp(): string {
  return process.env.RUNNER_TEMP || tmpdir();
}

function home(): string {
  return resolve(input('home', process.env.AGENTGATE_HOME || join(runnerTemp(), 'agentgate-home')));
}

function workspace(): string {
  return resolve(input('workspace', process.env.GITHUB_WORKSPACE || process.cwd()));
}

/** Runs the bundled CLI; its output goes to the step log (workflow commands included). */
function cli(args: string[], opts: { capture?: boolean } = {}): { status: number; stdout: string } {
  const res = spawnSync(process.execPath, [CLI, '-C', workspace(), ...args], {
    env: { ...process.env, AGENTGATE_HOME: home() },
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (res.error) throw new ActionFailure(`could not run the CLI: ${res.error.message}`);
  if (!opts.capture && res.stdout) process.stdout.write(res.stdout);
  if (res.stderr) process.stderr.write(res.stderr);
  return { status: res.status ?? 1, stdout: res.stdout };
}

function cliJson(args: string[], what: string): Record<string, unknown> {
  const res = cli([...args, '--json'], { capture: true });
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(res.stdout) as Record<string, unknown>;
  } catch {
    throw new ActionFailure(`${what}: the CLI printed no JSON (exit ${res.status})`);
  }
  const error = doc.error as { code?: string; message?: string } | undefined;
  if (res.status !== 0 || error)
    throw new ActionFailure(
      `${what} failed: ${error?.code ?? 'ERROR'}: ${error?.message ?? `exit ${res.status}`}`,
      error?.code,
    );
  return doc;
}

/** A POSIX shell word: single-quoted, with embedded single quotes closed, escaped and reopened. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

async function setup(): Promise<void> {
  const bin = join(runnerTemp(), 'agentgate-bin');
  await mkdir(bin, { recursive: true });
  const shim = join(bin, 'agentgate-snapshot');
  await writeFile(shim, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(CLI)} "$@"\n`, 'utf8');
  await chmod(shim, 0o755);
  await mkdir(home(), { recursive: true });
  const pathFile = envFile('GITHUB_PATH');
  if (pathFile) await appendPath(pathFile, bin);
  const envOut = envFile('GITHUB_ENV');
  if (envOut) await appendKeyValues(envOut, { AGENTGATE_HOME: home() });
  await setOutputs({ home: home(), 'bin-path': bin });
  process.stdout.write(`agentgate-snapshot is on PATH (${bin}); AGENTGATE_HOME=${home()}\n`);
}

async function finish(): Promise<void> {
  const format = input('report-format', 'html');
  if (!FORMATS.includes(format))
    throw new ActionFailure(`input report-format must be one of ${FORMATS.join(', ')}`);
  // Inputs first: a mistyped one fails the step before anything is run or written.
  const want = {
    verify: flag('verify', true),
    failOnVerify: flag('fail-on-verify', true),
    failOnGate: flag('fail-on-gate', false),
    summary: flag('summary', true) && envFile('GITHUB_STEP_SUMMARY') !== null,
    bundle: flag('bundle', false),
    publish: flag('publish', false),
  };
  const runArgs = input('run-id') ? ['--run', input('run-id')] : [];
  // The run id: given, or the most recent run (what `report` picks by default).
  const doc = cliJson(['report', '--format', 'json', '--ci', 'none', ...runArgs], 'report');
  const runId = (doc.run as { runId: string }).runId;
  const gates = doc.gates as ReportGates | undefined;
  const failedGates = (gates?.summary ?? []).filter((s) => s.latest.verdict !== 'pass').map((s) => s.name);
  const out = resolve(input('output-dir', join(runnerTemp(), 'agentgate-out')));
  await mkdir(out, { recursive: true });
  const outputs: Record<string, string> = {
    'run-id': runId,
    'report-path': '',
    'bundle-path': '',
    // As the CLI resolves it: $AGENTGATE_ARTIFACTS_DIR, the home's config, else <home>/artifacts.
    'artifacts-path': doc.artifactsPath as string,
    verified: '',
    'failed-gates': failedGates.join(','),
  };
  const failures: string[] = [];
  if (want.verify) {
    const verified = cli(['verify', '--run', runId, '--ci', 'github']);
    outputs.verified = String(verified.status === 0);
    // Exit 3: a check failed; any other failure is verify itself not running (its error is printed).
    if (verified.status !== 0 && want.failOnVerify)
      failures.push(
        verified.status === 3
          ? `verify found failed checks in run ${runId}`
          : `verify could not run for run ${runId} (exit ${verified.status})`,
      );
  }
  if (failedGates.length > 0 && want.failOnGate)
    failures.push(`the newest verdict of gate(s) ${failedGates.join(', ')} in run ${runId} is not a pass`);
  const published = await writeAndPublish(runId, format, out, want, outputs);
  failures.push(...published.failures);
  // A failed gate is an annotation either way: made here when no report call that annotates succeeded.
  if (!published.annotated) for (const line of gateAnnotations(gates)) process.stdout.write(`${line}\n`);
  await setOutputs(outputs);
  if (failures.length > 0) throw new ActionFailure(failures.join('; '));
}

/**
 * The step summary, the report, the bundle and the push. Each is tried whatever failed before it,
 * and each file written becomes its output (a workflow uploads them when the job fails too).
 * Returns what failed, and whether a report call annotated the failed gates.
 */
async function writeAndPublish(
  runId: string,
  format: string,
  out: string,
  want: { summary: boolean; bundle: boolean; publish: boolean },
  outputs: Record<string, string>,
): Promise<{ failures: string[]; annotated: boolean }> {
  const failures: string[] = [];
  const run = (args: string[], what: string): boolean => {
    try {
      cliJson(args, what);
      return true;
    } catch (error) {
      if (!(error instanceof ActionFailure)) throw error;
      failures.push(error.message);
      return false;
    }
  };
  // An earlier step's copy goes first, so that a file there is this step's.
  const writes = async (output: string, file: string, args: string[], what: string) => {
    await rm(file, { force: true }).catch(() => undefined);
    const ok = run(args, what);
    if (
      await stat(file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      outputs[output] = file;
    return ok;
  };
  // Failed gates are annotated once: by the summary's report, else by the report file's (a call that
  // fails prints none).
  let annotated =
    want.summary && run(['report', '--run', runId, '--format', 'md', '--ci', 'github'], 'summary');
  if (format !== 'none') {
    const file = join(out, `agentgate-report-${runId}.${EXTENSIONS[format]}`);
    const ci = annotated ? 'none' : 'github';
    const args = ['report', '--run', runId, '--format', format, '-o', file, '--ci', ci];
    if ((await writes('report-path', file, args, 'report')) && ci === 'github') annotated = true;
  }
  if (want.bundle) {
    const file = join(out, `agentgate-${runId}.bundle`);
    await writes('bundle-path', file, ['export', '--run', runId, '-o', file], 'export');
  }
  if (want.publish)
    run(['push', '--run', runId, ...(input('remote') ? ['--remote', input('remote')] : [])], 'push');
  return { failures, annotated };
}

async function anchorMode(): Promise<void> {
  // anchor() checks its inputs, then makes the directory.
  const outputDir = resolve(input('output-dir', join(runnerTemp(), 'agentgate-out')));
  await anchor(
    {
      input,
      flag,
      cli: (args) => cli(args),
      cliJson,
      setOutputs,
      stepSummary: envFile('GITHUB_STEP_SUMMARY'),
      outputDir,
      fail: (message) => new ActionFailure(message),
    },
    process.env,
  );
}

async function main(): Promise<void> {
  const mode = input('mode', 'setup');
  if (mode === 'setup') await setup();
  else if (mode === 'finish') await finish();
  else if (mode === 'anchor') await anchorMode();
  else throw new ActionFailure(`input mode must be setup, finish or anchor, not ${JSON.stringify(mode)}`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`::error title=agentgate::${escapeData(message)}\n`);
  process.exitCode = 1;
});
