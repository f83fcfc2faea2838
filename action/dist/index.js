import { createRequire as __agentgateCreateRequire } from 'node:module';
const require = __agentgateCreateRequire(import.meta.url);

// action/src/main.ts
import { spawnSync } from "node:child_process";
import { chmod, mkdir, rm, stat as stat2, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join as join2, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// src/ci/github.ts
import { appendFile, stat } from "node:fs/promises";

// src/errors.ts
var AgentgateError = class extends Error {
  /** Exit status the CLI uses: 2 for usage errors, 3 for a check that ran and failed, 1 for everything else. */
  exitCode = 1;
  details;
  constructor(message, options = {}) {
    super(message, options.cause === void 0 ? void 0 : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details ?? {};
  }
  toJSON() {
    const hasDetails = Object.keys(this.details).length > 0;
    return { code: this.code, message: this.message, ...hasDetails ? { details: this.details } : {} };
  }
};
var InvalidArgumentError = class extends AgentgateError {
  code = "INVALID_ARGUMENT";
  exitCode = 2;
};
var WriteFailedError = class extends AgentgateError {
  code = "WRITE_FAILED";
};

// src/fs/random.ts
import { createRequire } from "node:module";
var crypto = null;
function randomBytes(count) {
  crypto ??= createRequire(import.meta.url)("node:crypto");
  return crypto.randomBytes(count);
}
function randomHex(bytes) {
  return randomBytes(bytes).toString("hex");
}

// src/fs/atomic.ts
function errnoOf(cause) {
  const code = cause?.code;
  return typeof code === "string" ? code : cause instanceof Error ? cause.message : String(cause);
}

// src/ci/github.ts
function formatKeyValues(values, random = randomDelimiter) {
  let out = "";
  for (const [name, raw] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      throw new InvalidArgumentError(`output name ${JSON.stringify(name)} is not valid`);
    const value = raw === null ? "" : String(raw);
    let delimiter = random();
    while (value.includes(delimiter) || name.includes(delimiter)) delimiter = random();
    out += `${name}<<${delimiter}
${value}
${delimiter}
`;
  }
  return out;
}
function randomDelimiter() {
  return `ghadelimiter_${randomHex(16)}`;
}
async function appendKeyValues(file, values) {
  await appendTo(file, formatKeyValues(values));
}
var GITHUB_STEP_SUMMARY_LIMIT = 1024 * 1024;
async function appendPath(file, dir) {
  if (/[\r\n]/.test(dir))
    throw new InvalidArgumentError("a directory with a line break cannot go on $GITHUB_PATH");
  await appendTo(file, `${dir}
`);
}
async function appendTo(file, text) {
  await appendFile(file, text, "utf8").catch((cause) => {
    throw new WriteFailedError(
      `could not append to ${file} (${errnoOf(cause)}), the file GitHub Actions named for this step; check the variable that names it`,
      { cause, details: { path: file } }
    );
  });
}
function escapeData(text) {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

// action/src/anchor.ts
import { appendFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
var ZERO = /^0+$/;
var SUMMARY_ANCHORS = 20;
var STEP_SUMMARY_LIMIT = 1024 * 1024;
function appendWithinLimit(file, text) {
  let used = 0;
  try {
    used = statSync(file).size;
  } catch {
  }
  if (used + Buffer.byteLength(text, "utf8") <= STEP_SUMMARY_LIMIT) appendFileSync(file, text);
}
function anchorTarget(io, env) {
  const range = io.input("range");
  if (range) return ["--range", range];
  const commit = io.input("commit");
  if (commit) return [commit];
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const pr = event?.pull_request;
  if (pr?.merged === true && typeof pr.merge_commit_sha === "string") return [pr.merge_commit_sha];
  const before = typeof event?.before === "string" ? event.before : "";
  const after = typeof event?.after === "string" ? event.after : env.GITHUB_SHA ?? "";
  if (before && !ZERO.test(before) && after) return ["--range", `${before}..${after}`];
  if (after) return [after];
  return ["HEAD"];
}
function readEvent(path) {
  if (!path) return null;
  try {
    const doc = JSON.parse(readFileSync(path, "utf8"));
    return doc !== null && typeof doc === "object" ? doc : null;
  } catch {
    return null;
  }
}
async function anchor(io, env) {
  const remote = io.input("remote") ? ["--remote", io.input("remote")] : [];
  if (io.flag("fetch", true)) io.cliJson(["fetch", ...remote], "fetch");
  const target = anchorTarget(io, env);
  const doc = io.cliJson(["anchor", ...target], "anchor");
  const anchors = Array.isArray(doc) ? doc : [doc];
  const total = anchors.reduce(
    (t, a) => ({
      files: t.files + a.coverage.files,
      filesFromRuns: t.filesFromRuns + a.coverage.filesFromRuns,
      linesAdded: t.linesAdded + a.coverage.linesAdded,
      linesFromRuns: t.linesFromRuns + a.coverage.linesFromRuns
    }),
    { files: 0, filesFromRuns: 0, linesAdded: 0, linesFromRuns: 0 }
  );
  const report = reportAndPublish(io, anchors, remote);
  await io.setOutputs({
    commits: anchors.map((a) => a.commit).join(","),
    runs: [...new Set(anchors.flatMap((a) => a.runs.map((r) => r.runId)))].sort().join(","),
    files: String(total.files),
    "files-from-runs": String(total.filesFromRuns),
    "lines-added": String(total.linesAdded),
    "lines-from-runs": String(total.linesFromRuns),
    coverage: total.linesAdded === 0 ? "" : String(Math.floor(total.linesFromRuns * 100 / total.linesAdded)),
    "report-path": report
  });
  const min = io.input("min-coverage");
  if (min) {
    const wanted = Number(min);
    if (!Number.isInteger(wanted) || wanted < 0 || wanted > 100)
      throw io.fail(`input min-coverage must be a whole number from 0 to 100, not ${JSON.stringify(min)}`);
    const got = total.linesAdded === 0 ? 100 : Math.floor(total.linesFromRuns * 100 / total.linesAdded);
    if (got < wanted)
      throw io.fail(
        `${total.linesFromRuns} of ${total.linesAdded} added lines (${got}%) come from recorded runs, below min-coverage ${wanted}%`
      );
  }
}
function reportAndPublish(io, anchors, remote) {
  const last = anchors.at(-1);
  const report = last === void 0 ? "" : join(io.outputDir, `agentgate-anchor-${last.commit}.html`);
  if (last !== void 0)
    io.cliJson(
      ["report", "--anchor", last.commit, "--format", "html", "-o", report, "--ci", "none"],
      "report"
    );
  if (io.stepSummary !== null && io.flag("summary", true)) {
    if (last === void 0)
      appendWithinLimit(io.stepSummary, "## agentgate anchor\n\nNo new first-parent commit to anchor.\n");
    for (const a of anchors.slice(-SUMMARY_ANCHORS)) {
      const doc = io.cliJson(["report", "--anchor", a.commit, "--format", "md", "--ci", "github"], "summary");
      const appended = doc?.appended;
      if (appended !== void 0 && appended !== "whole") break;
    }
  }
  if (io.flag("publish", true) && last !== void 0)
    io.cliJson(["push", "--anchors", "only", ...remote], "push");
  return report;
}

// action/src/main.ts
var HERE = dirname(fileURLToPath(import.meta.url));
var CLI = join2(HERE, "cli.js");
var FORMATS = ["html", "md", "json", "dotenv", "none"];
var EXTENSIONS = { html: "html", md: "md", json: "json", dotenv: "env" };
var ActionFailure = class extends Error {
};
function input(name, fallback = "") {
  const value = process.env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`];
  return value === void 0 || value.trim() === "" ? fallback : value.trim();
}
function flag(name, fallback) {
  const value = input(name, String(fallback)).toLowerCase();
  if (value === "true") return true;
  if (value === "false") return false;
  throw new ActionFailure(`input ${name} must be true or false, not ${JSON.stringify(value)}`);
}
function envFile(name) {
  const value = process.env[name];
  return value ? value : null;
}
async function setOutputs(values) {
  const file = envFile("GITHUB_OUTPUT");
  if (file) await appendKeyValues(file, values);
}
function runnerTemp() {
  return process.env.RUNNER_TEMP || tmpdir();
}
function home() {
  return resolve(input("home", process.env.AGENTGATE_HOME || join2(runnerTemp(), "agentgate-home")));
}
function workspace() {
  return resolve(input("workspace", process.env.GITHUB_WORKSPACE || process.cwd()));
}
function cli(args, opts = {}) {
  const res = spawnSync(process.execPath, [CLI, "-C", workspace(), ...args], {
    env: { ...process.env, AGENTGATE_HOME: home() },
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"]
  });
  if (res.error) throw new ActionFailure(`could not run the CLI: ${res.error.message}`);
  if (!opts.capture && res.stdout) process.stdout.write(res.stdout);
  if (res.stderr) process.stderr.write(res.stderr);
  return { status: res.status ?? 1, stdout: res.stdout };
}
function cliJson(args, what) {
  const res = cli([...args, "--json"], { capture: true });
  let doc;
  try {
    doc = JSON.parse(res.stdout);
  } catch {
    throw new ActionFailure(`${what}: the CLI printed no JSON (exit ${res.status})`);
  }
  const error = doc.error;
  if (res.status !== 0 || error)
    throw new ActionFailure(
      `${what} failed: ${error?.code ?? "ERROR"}: ${error?.message ?? `exit ${res.status}`}`
    );
  return doc;
}
function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
async function setup() {
  const bin = join2(runnerTemp(), "agentgate-bin");
  await mkdir(bin, { recursive: true });
  const shim = join2(bin, "agentgate-snapshot");
  await writeFile(shim, `#!/bin/sh
exec ${shellQuote(process.execPath)} ${shellQuote(CLI)} "$@"
`, "utf8");
  await chmod(shim, 493);
  await mkdir(home(), { recursive: true });
  const pathFile = envFile("GITHUB_PATH");
  if (pathFile) await appendPath(pathFile, bin);
  const envOut = envFile("GITHUB_ENV");
  if (envOut) await appendKeyValues(envOut, { AGENTGATE_HOME: home() });
  await setOutputs({ home: home(), "bin-path": bin });
  process.stdout.write(`agentgate-snapshot is on PATH (${bin}); AGENTGATE_HOME=${home()}
`);
}
async function finish() {
  const format = input("report-format", "html");
  if (!FORMATS.includes(format))
    throw new ActionFailure(`input report-format must be one of ${FORMATS.join(", ")}`);
  const runArgs = input("run-id") ? ["--run", input("run-id")] : [];
  const doc = cliJson(["report", "--format", "json", "--ci", "none", ...runArgs], "report");
  const runId = doc.run.runId;
  const failedGates = (doc.gates?.summary ?? []).filter((s) => s.latest.verdict !== "pass").map((s) => s.name);
  const out = resolve(input("output-dir", join2(runnerTemp(), "agentgate-out")));
  await mkdir(out, { recursive: true });
  const outputs = {
    "run-id": runId,
    "report-path": "",
    "bundle-path": "",
    "artifacts-path": join2(
      process.env.AGENTGATE_ARTIFACTS_DIR ? resolve(process.env.AGENTGATE_ARTIFACTS_DIR) : join2(home(), "artifacts"),
      runId
    ),
    verified: "",
    "failed-gates": failedGates.join(",")
  };
  const want = {
    verify: flag("verify", true),
    failOnVerify: flag("fail-on-verify", true),
    failOnGate: flag("fail-on-gate", false),
    summary: flag("summary", true) && envFile("GITHUB_STEP_SUMMARY") !== null,
    bundle: flag("bundle", false),
    publish: flag("publish", false)
  };
  const failures = [];
  if (want.verify) {
    const verified = cli(["verify", "--run", runId, "--ci", "github"]);
    outputs.verified = String(verified.status === 0);
    if (verified.status !== 0 && want.failOnVerify)
      failures.push(
        verified.status === 3 ? `verify found failed checks in run ${runId}` : `verify could not run for run ${runId} (exit ${verified.status})`
      );
  }
  if (failedGates.length > 0 && want.failOnGate && failures.length === 0)
    failures.push(`the newest verdict of gate(s) ${failedGates.join(", ")} in run ${runId} is not a pass`);
  failures.push(...await writeAndPublish(runId, format, out, want, outputs));
  await setOutputs(outputs);
  if (failures.length > 0) throw new ActionFailure(failures.join("; "));
}
async function writeAndPublish(runId, format, out, want, outputs) {
  const failures = [];
  const run = (args, what) => {
    try {
      cliJson(args, what);
    } catch (error) {
      if (!(error instanceof ActionFailure)) throw error;
      failures.push(error.message);
    }
  };
  const writes = async (output, file, args, what) => {
    await rm(file, { force: true }).catch(() => void 0);
    run(args, what);
    if (await stat2(file).then(
      (s) => s.isFile(),
      () => false
    ))
      outputs[output] = file;
  };
  if (want.summary) run(["report", "--run", runId, "--format", "md", "--ci", "github"], "summary");
  if (format !== "none") {
    const file = join2(out, `agentgate-report-${runId}.${EXTENSIONS[format]}`);
    const ci = want.summary ? "none" : "github";
    await writes(
      "report-path",
      file,
      ["report", "--run", runId, "--format", format, "-o", file, "--ci", ci],
      "report"
    );
  }
  if (want.bundle) {
    const file = join2(out, `agentgate-${runId}.bundle`);
    await writes("bundle-path", file, ["export", "--run", runId, "-o", file], "export");
  }
  if (want.publish)
    run(["push", "--run", runId, ...input("remote") ? ["--remote", input("remote")] : []], "push");
  return failures;
}
async function anchorMode() {
  const outputDir = resolve(input("output-dir", join2(runnerTemp(), "agentgate-out")));
  await mkdir(outputDir, { recursive: true });
  await anchor(
    {
      input,
      flag,
      cli: (args) => cli(args),
      cliJson,
      setOutputs,
      stepSummary: envFile("GITHUB_STEP_SUMMARY"),
      outputDir,
      fail: (message) => new ActionFailure(message)
    },
    process.env
  );
}
async function main() {
  const mode = input("mode", "setup");
  if (mode === "setup") await setup();
  else if (mode === "finish") await finish();
  else if (mode === "anchor") await anchorMode();
  else throw new ActionFailure(`input mode must be setup, finish or anchor, not ${JSON.stringify(mode)}`);
}
main().catch((error) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`::error title=agentgate::${escapeData(message)}
`);
  process.exitCode = 1;
});
