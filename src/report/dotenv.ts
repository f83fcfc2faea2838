/**
 * `report --format dotenv`: AGENTGATE_* variables for GitLab's `artifacts:reports:dotenv`, which
 * takes at most 50 variables and 5 KB, one `KEY=value` per line. Values are made single-line and
 * plain (no quotes, `$`, backslashes or control characters) so no shell or parser reads more
 * into them. Free text (the task, the gate label, the gates' lines) is folded and cut; ids, SHAs,
 * the branch and the workspace are kept whole, as a later job uses them.
 */
import type { RunReport } from '../../types/report.js';
import { gateDotenvVariables } from './gates.js';

export const DOTENV_MAX_VARIABLES = 50;
export const DOTENV_MAX_BYTES = 5 * 1024;
const TEXT_LIMIT = 200;

export function dotenvVariables(report: RunReport): [string, string][] {
  const last = report.snapshots.at(-1);
  const failed = report.verification.checks.filter((c) => !c.ok).length;
  const vars: [string, string | number | boolean | null | undefined][] = [
    ['AGENTGATE_RUN_ID', report.run.runId],
    ['AGENTGATE_BRANCH', report.branch],
    ['AGENTGATE_BEFORE_SHA', report.beforeSha],
    ['AGENTGATE_AFTER_SHA', report.afterSha],
    ['AGENTGATE_ITERATIONS', report.totals.iterations],
    ['AGENTGATE_FILES_CHANGED', report.totals.filesChanged],
    ['AGENTGATE_INSERTIONS', report.totals.insertions],
    ['AGENTGATE_DELETIONS', report.totals.deletions],
    ['AGENTGATE_VERIFIED', report.verification.ok],
    ['AGENTGATE_FAILED_CHECKS', failed],
    ['AGENTGATE_LAST_SNAPSHOT_ID', last?.id],
    ['AGENTGATE_LAST_ITERATION', last?.iteration],
    ['AGENTGATE_LAST_TASK', last?.task],
    ['AGENTGATE_LAST_GATE', last?.gate],
    ['AGENTGATE_WORKSPACE', report.run.workspace],
    ['AGENTGATE_GENERATED_AT', report.generatedAt],
  ];
  const text = new Set(['AGENTGATE_LAST_TASK', 'AGENTGATE_LAST_GATE']);
  for (const [k, v] of gateDotenvVariables(report.gates, DOTENV_MAX_VARIABLES - vars.length)) {
    text.add(k);
    vars.push([k, v]);
  }
  return vars.slice(0, DOTENV_MAX_VARIABLES).map(([k, v]) => {
    const value = v === null || v === undefined ? '' : String(v);
    return [k, text.has(k) ? textValue(value) : plainValue(value)];
  });
}

export function renderDotenv(report: RunReport): string {
  return withinDotenvBytes(dotenvVariables(report));
}

/**
 * `KEY=value` lines within GitLab's 5 KB, which it takes only for a file smaller than that (`size <
 * dotenv_size`: one of 5,120 bytes is refused whole, no variable set): a line that does not fit is
 * left out, and the shorter ones after it still go in (a long workspace must not take the gates'
 * verdicts with it).
 */
export function withinDotenvBytes(vars: ReadonlyArray<readonly [string, string]>): string {
  let out = '';
  let bytes = 0;
  for (const [k, v] of vars) {
    const line = `${k}=${v}\n`;
    const size = Buffer.byteLength(line, 'utf8');
    if (bytes + size >= DOTENV_MAX_BYTES) continue;
    out += line;
    bytes += size;
  }
  return out;
}

/**
 * One line that no shell or parser reads more into: control characters become spaces; quotes,
 * backquotes, `$` and `\` become `_`, and so does the first `#` of a `##[` (a workflow command to
 * GitHub's runner, wherever it stands in a line of a log).
 */
export function plainValue(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
      .replace(/["'`$\\]|#(?=#\[)/g, '_')
  );
}

/** Free text: plain, its runs of white space folded to one, cut to 200 characters. */
function textValue(text: string): string {
  return [...plainValue(text).replace(/\s+/g, ' ').trim()].slice(0, TEXT_LIMIT).join('');
}
