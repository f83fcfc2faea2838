import { OBJECT_ID_PATTERN } from '../../../types/ids.js';
import { GitOutputUnparseableError } from '../../errors.js';

/** One entry of `git status --porcelain=v2 -z`. `xy` is the two-letter index/work-tree code. */
export type StatusEntry =
  | { kind: 'ordinary'; xy: string; submodule: string; path: string }
  | { kind: 'renamed'; xy: string; submodule: string; score: string; path: string; origPath: string }
  | { kind: 'unmerged'; xy: string; submodule: string; path: string }
  | { kind: 'untracked'; path: string }
  | { kind: 'ignored'; path: string };

/** The branch headers and entries of one status report. */
export interface StatusReport {
  /** HEAD's commit, or null on an unborn branch (`# branch.oid (initial)`). */
  oid: string | null;
  /**
   * The checked-out branch's short name, or null when HEAD is detached (`# branch.head (detached)`)
   * or names a ref outside refs/heads/ (a remote-tracking ref: git prints `(null)`).
   */
  head: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  entries: StatusEntry[];
}

/** Space-separated fields before the path, per entry kind (the path itself may contain spaces). */
const FIELDS_BEFORE_PATH = { '1': 8, '2': 9, u: 10 } as const;

/**
 * Parses the output of `git status --porcelain=v2 -z --branch` (with or without `--ignored`).
 * Pure: takes git's bytes, returns data, throws GIT_FAILED on output it does not recognise.
 * With -z, paths are raw and unquoted; a rename's original path is the record after it.
 */
export function parseStatusV2(output: Buffer | string): StatusReport {
  const text = typeof output === 'string' ? output : output.toString('utf8');
  const records = text.split('\0');
  if (records.at(-1) === '') records.pop();
  const report: StatusReport = {
    oid: null,
    head: null,
    upstream: null,
    ahead: null,
    behind: null,
    entries: [],
  };
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as string;
    const kind = record.slice(0, 2);
    if (kind === '# ') readHeader(report, record);
    else if (kind === '? ')
      report.entries.push({ kind: 'untracked', path: nonEmpty(record.slice(2), record) });
    else if (kind === '! ') report.entries.push({ kind: 'ignored', path: nonEmpty(record.slice(2), record) });
    else if (kind === '1 ' || kind === 'u ') {
      const [fields, path] = splitFields(record, FIELDS_BEFORE_PATH[kind[0] as '1' | 'u']);
      const entry = { xy: fields[1] as string, submodule: fields[2] as string, path };
      report.entries.push(kind === '1 ' ? { kind: 'ordinary', ...entry } : { kind: 'unmerged', ...entry });
    } else if (kind === '2 ') {
      const [fields, path] = splitFields(record, FIELDS_BEFORE_PATH['2']);
      const origPath = records[++i];
      if (origPath === undefined || origPath === '')
        throw malformed('rename without its original path', record);
      report.entries.push({
        kind: 'renamed',
        xy: fields[1] as string,
        submodule: fields[2] as string,
        score: fields[8] as string,
        path,
        origPath,
      });
    } else throw malformed('unknown record', record);
  }
  return report;
}

function readHeader(report: StatusReport, record: string): void {
  const space = record.indexOf(' ', 2);
  const key = space < 0 ? record.slice(2) : record.slice(2, space);
  const value = space < 0 ? '' : record.slice(space + 1);
  if (key === 'branch.oid') report.oid = value === '(initial)' ? null : hexId(value, record);
  else if (key === 'branch.head')
    report.head = value === '(detached)' || value === '(null)' ? null : nonEmpty(value, record);
  else if (key === 'branch.upstream') report.upstream = nonEmpty(value, record);
  else if (key === 'branch.ab') {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (!m) throw malformed('bad ahead/behind header', record);
    report.ahead = Number(m[1]);
    report.behind = Number(m[2]);
  }
  // Other headers (`# stash`, future ones) carry nothing we need.
}

/** Splits `count` space-separated fields off the front of `record`; the rest is the path. */
function splitFields(record: string, count: number): [string[], string] {
  const fields: string[] = [];
  let start = 0;
  for (let n = 0; n < count; n++) {
    const space = record.indexOf(' ', start);
    if (space < 0) throw malformed(`expected ${count} fields before the path`, record);
    fields.push(record.slice(start, space));
    start = space + 1;
  }
  if (!/^[.A-Z]{2}$/.test(fields[1] as string)) throw malformed('bad XY code', record);
  return [fields, nonEmpty(record.slice(start), record)];
}

function hexId(value: string, record: string): string {
  if (!OBJECT_ID_PATTERN.test(value)) throw malformed('bad object id', record);
  return value;
}

function nonEmpty(value: string, record: string): string {
  if (value === '') throw malformed('empty field', record);
  return value;
}

function malformed(reason: string, record: string): GitOutputUnparseableError {
  return new GitOutputUnparseableError(
    `unexpected output from git status (${reason}): ${JSON.stringify(record.slice(0, 120))}`,
    {
      details: { args: ['status', '--porcelain=v2', '-z'], reason, record: record.slice(0, 200) },
    },
  );
}
