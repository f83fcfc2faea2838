import { escapeHidden, jsonText, noLegacyCommands } from '../text.js';
import type { StoreCorruptError } from '../errors.js';
/**
 * Everything the CLI shows people: plain tables, colour only on a TTY and never with NO_COLOR set
 * to a value (no-color.org: an empty NO_COLOR is as good as none).
 */
export function useColour(terminal: boolean): boolean {
  return terminal && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

/** `1 file`, `2 files`: a count and its noun, plural unless the count is one. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;

export function paint(text: string, colour: Colour, on: boolean): string {
  return on ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
}

/** A table cell we coloured ourselves (a verdict, "ok"): shown as it is, where any other cell is made printable. */
export class Painted {
  constructor(readonly text: string) {}
}

export function paintCell(text: string, colour: Colour, on: boolean): Painted {
  return new Painted(paint(text, colour, on));
}

// eslint-disable-next-line no-control-regex -- the escape character is what we strip
const ANSI = /\u001b\[[0-9;]*m/g;

/** The width a cell takes on a terminal: its colour codes take none. */
export function visibleWidth(text: string): number {
  return text.replace(ANSI, '').length;
}

/** Named escapes printable() uses for the commonest hidden characters. */
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The one function that makes text from elsewhere (a file name, a branch, a fetched verdict's
 * command or reason, a record) visible as it is, on one line, for people: every hidden character
 * (escapeHidden in src/text.ts) is shown escaped (`\n`, `\x1b`, `\u202e`), so what a person reads is
 * what the text holds and what would run. A name cannot break a table row, start a line that CI
 * reads as a workflow command (`::warning::`), drive the terminal, or reorder or hide what is
 * around it.
 */
export function printable(text: string): string {
  return escapeHidden(text, { named: NAMED });
}

// A line CI reads as a workflow command: `::` after any blanks (GitHub's runner trims them first,
// as .NET's TrimStart does: U+0085, NEL, too, which \s leaves out); a line starts after \n or a
// lone \r (the runner reads lines as .NET does).
const COMMAND_LINE = /^((?:[^\S\r\n]|\u0085)*):(?=:)/gm;

/**
 * Text we print, made safe line by line: a line that would start with `::` (a GitHub workflow command
 * such as `::error::` or `::add-mask::`) gets its first colon shown escaped as `\x3a`, and a legacy
 * command's `##[`, which the runner obeys anywhere in a line, its first `#` as `\x23`. Every line the
 * CLI prints on stdout or stderr goes through here (src/cli/main.ts), or as JSON through
 * jsonText, except the workflow commands we emit on purpose and the bytes of a
 * diff printed by `patch` and `checkpoint diff`.
 */
export function noWorkflowCommands(text: string): string {
  return noLegacyCommands(text.replace(COMMAND_LINE, '$1\\x3a'), '\\x23');
}

/**
 * What a command prints beside its result: the store's warnings (with --json, one
 * `{"warnings":[...]}` line), notices for people, and CI workflow commands, on stdout for people
 * unless stdout holds a document. `serve` prints the same on its stderr.
 */
export function asideLines(
  result: {
    warnings?: unknown[];
    notices?: string[];
    workflowCommands?: string[];
    documentOnStdout?: boolean;
  },
  json: boolean,
): { stdout: string[]; stderr: string[] } {
  const stderr: string[] = [];
  if (json && result.warnings !== undefined && result.warnings.length > 0)
    stderr.push(jsonText({ warnings: result.warnings }));
  stderr.push(...(result.notices ?? []).map((n) => noWorkflowCommands(printable(n))));
  const commands = result.workflowCommands ?? [];
  if (json || result.documentOnStdout === true) return { stdout: [], stderr: [...stderr, ...commands] };
  return { stdout: commands, stderr };
}

/** A left-aligned table of printable cells; numeric-looking columns are right-aligned. Widths ignore colour codes. */
export function table(headers: string[], cells: Array<Array<string | Painted>>): string {
  const rows = cells.map((r) => r.map((c) => (c instanceof Painted ? c.text : printable(c))));
  const widths = headers.map((h, i) =>
    Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? ''))),
  );
  const numeric = headers.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^[+-]?\d+$/.test((r[i] ?? '').replace(ANSI, ''))),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => {
        const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleWidth(c)));
        return numeric[i] ? pad + c : c + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A reader that stops early (`| head`) closes the pipe: the output it did not want is no failure. */
export function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

export function short(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 10) : '-';
}

/** A store file that does not load, as a `{"warnings":[...]}` entry (stderr, with --json). */
export function storeWarning(p: StoreCorruptError): { code: string; message: string; file: string | null } {
  return {
    code: p.code,
    message: p.message,
    file: typeof p.details.path === 'string' ? p.details.path : null,
  };
}

/**
 * The exit status of a check that ran and failed (`verify`, a failing gate, a `gate replay` that did
 * not reproduce), apart from 1 (the tool itself failed) and 2 (usage).
 */
export const VERIFY_FAILED_EXIT = 3;

/** An error as `--json` (and `serve`) prints it: its code, message and, when it has any, details. */
export function errorJson(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): { code: string; message: string; details?: Record<string, unknown> } {
  return { code, message, ...(Object.keys(details).length > 0 ? { details } : {}) };
}
