/**
 * GitHub Actions without a toolkit: step outputs, environment and path files are plain appends,
 * annotations are workflow command lines. Nothing here prints: the CLI prints what it returns.
 */
import { constants } from 'node:fs';
import { appendFile, open, stat } from 'node:fs/promises';
import type { VerifyCheck } from '../../types/verify.js';
import { CiEnvironmentError, InvalidArgumentError, WriteFailedError } from '../errors.js';
import { errnoOf } from '../fs/atomic.js';
import { randomHex } from '../fs/random.js';

export type CiMode = 'github' | 'none';

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
export const CI_MODES: readonly CiMode[] = ['github', 'none'];

/** `--ci github|none` wins; else GitHub Actions is on when `GITHUB_ACTIONS=true`. `forced` tells which. */
export function detectCi(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { mode: CiMode; forced: boolean } {
  if (flag !== undefined) {
    if (!(CI_MODES as readonly string[]).includes(flag))
      throw new InvalidArgumentError(`--ci must be one of ${CI_MODES.join(', ')}`);
    return { mode: flag as CiMode, forced: true };
  }
  return { mode: env.GITHUB_ACTIONS === 'true' ? 'github' : 'none', forced: false };
}

/**
 * The file a GitHub variable names ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY...), or null. When the
 * user forced `--ci github`, a missing variable is an error (said before any work is done).
 */
export function githubFile(
  variable: string,
  forced: boolean,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const value = env[variable];
  if (value !== undefined && value !== '') return value;
  if (forced)
    throw new CiEnvironmentError(
      `--ci github needs $${variable} to name a file; run inside a GitHub Actions step or use --ci none`,
      { details: { variable } },
    );
  return null;
}

/** The file a GitHub variable names when `--ci` (or the environment) turns the integration on, else null. */
export function githubFileFor(flag: string | undefined, variable: string): string | null {
  const ci = detectCi(flag);
  return ci.mode === 'github' ? githubFile(variable, ci.forced) : null;
}

/**
 * githubFileFor, for a command that records something before it appends: the file is opened for
 * appending first (never waiting on a FIFO with no reader), so one that cannot take the outputs
 * (a directory, a missing directory, no permission) is WRITE_FAILED before anything is recorded,
 * not after, when a retry would find the iteration taken.
 */
export async function appendableGithubFileFor(
  flag: string | undefined,
  variable: string,
): Promise<string | null> {
  const file = githubFileFor(flag, variable);
  if (file === null) return null;
  const handle = await open(file, APPEND_FLAGS | constants.O_NONBLOCK, 0o666).catch((cause: unknown) => {
    throw appendFailed(file, cause);
  });
  await handle.close();
  return file;
}

/**
 * `name<<DELIM\nvalue\nDELIM\n` for every entry: the form GitHub reads for $GITHUB_OUTPUT and
 * $GITHUB_ENV whatever the value holds (newlines, `=`). The delimiter is random and checked not
 * to occur in the value, so a value cannot end its own block early.
 */
export function formatKeyValues(
  values: Record<string, string | number | boolean | null>,
  random: () => string = randomDelimiter,
): string {
  let out = '';
  for (const [name, raw] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      throw new InvalidArgumentError(`output name ${JSON.stringify(name)} is not valid`);
    const value = raw === null ? '' : String(raw);
    let delimiter = random();
    while (value.includes(delimiter) || name.includes(delimiter)) delimiter = random();
    out += `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
  }
  return out;
}

function randomDelimiter(): string {
  return `ghadelimiter_${randomHex(16)}`;
}

/** Appends the values to the file in the multi-line-safe form (one append per call). */
export async function appendKeyValues(
  file: string,
  values: Record<string, string | number | boolean | null>,
): Promise<void> {
  await appendTo(file, formatKeyValues(values));
}

/** What `appendStepSummary` appended: the whole text, a cut one (saying so), only the one-line note, or nothing. */
export type SummaryAppended = 'whole' | 'cut' | 'note' | 'nothing';

/** A Markdown section for the step summary, and how to make it smaller. */
export interface StepSummarySection {
  /** The whole section, never cut (appended as it is, it is reported as `whole`). */
  text: string;
  /** The section cut to fit `room` bytes, with a note saying so (larger still when its head alone is). */
  cutTo: (room: number) => string;
  /** One line saying the section was left out, for when not even a cut one fits. */
  note: string;
}

/** The most a step summary file may hold: GitHub shows none larger than 1 MiB. */
export const GITHUB_STEP_SUMMARY_LIMIT = 1024 * 1024;

/**
 * Appends Markdown to the step summary file within the room it has left: the limit is the whole
 * file's, which earlier calls of the step (`report` more than once, the Action's anchor sections) or
 * other tools may have filled. The whole section if it fits, else the section cut to the room, else
 * its note, else nothing (plain text: the whole of it or nothing).
 */
export async function appendStepSummary(
  file: string,
  markdown: string | StepSummarySection,
  limit = GITHUB_STEP_SUMMARY_LIMIT,
): Promise<SummaryAppended> {
  const used = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  // The line break appendTo puts first when the file's last line is unended takes room too.
  const room = limit - used - ((await lineLeftOpen(file, used)) ? 1 : 0);
  const section = typeof markdown === 'string' ? { text: markdown } : markdown;
  const tries: Array<[SummaryAppended, () => string]> = [['whole', () => section.text]];
  if ('cutTo' in section) tries.push(['cut', () => section.cutTo(room)], ['note', () => section.note]);
  for (const [appended, make] of tries) {
    const text = withNewline(make());
    if (Buffer.byteLength(text, 'utf8') > room) continue;
    await appendTo(file, text);
    return appended;
  }
  return 'nothing';
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** Appends a directory to $GITHUB_PATH (one line; a path with a newline cannot be put there). */
export async function appendPath(file: string, dir: string): Promise<void> {
  if (/[\r\n]/.test(dir))
    throw new InvalidArgumentError('a directory with a line break cannot go on $GITHUB_PATH');
  await appendTo(file, `${dir}\n`);
}

/**
 * One append to a file the runner named; a file that cannot take it (no such directory, a directory,
 * a FIFO with no reader) is WRITE_FAILED. Opened without blocking first, so that a FIFO nobody reads
 * fails at once (ENXIO) instead of holding the CI job until it is killed; anything but a regular file
 * (a FIFO with its reader, a terminal) is then written as a shell redirection would, blocking.
 */
async function appendTo(file: string, text: string): Promise<void> {
  const failed = (cause: unknown): never => {
    throw appendFailed(file, cause);
  };
  const handle = await open(file, APPEND_FLAGS | constants.O_NONBLOCK, 0o666).catch(failed);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await appendFile(file, text, 'utf8').catch(failed);
      return;
    }
    // `printf 'x=1' >> "$GITHUB_OUTPUT"` leaves a line unended: joined to our first line, both would
    // be misread (the runner fails the step on the value lines that follow).
    const lead = (await lineLeftOpen(file, stats.size)) ? '\n' : '';
    await handle.appendFile(lead + text, 'utf8').catch(failed);
  } finally {
    await handle.close();
  }
}

/** Whether the regular file `file` of `size` bytes ends in the middle of a line (unreadable: no). */
async function lineLeftOpen(file: string, size: number): Promise<boolean> {
  if (size === 0) return false;
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (handle === null) return false;
  try {
    if (!(await handle.stat()).isFile()) return false;
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
    return bytesRead === 1 && buffer[0] !== 0x0a;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

function appendFailed(file: string, cause: unknown): WriteFailedError {
  return new WriteFailedError(
    `could not append to ${file} (${errnoOf(cause)}), the file GitHub Actions named for this step; check the variable that names it`,
    { cause, details: { path: file } },
  );
}

export const MAX_ANNOTATIONS = 10;

/**
 * `::error` workflow commands for the failed checks, at most MAX_ANNOTATIONS lines in all: when
 * there are more failures, the last line counts the ones not annotated. Returns the lines (no
 * trailing newline on each).
 */
export function errorAnnotations(checks: readonly VerifyCheck[], max = MAX_ANNOTATIONS): string[] {
  const failed = checks.filter((c) => !c.ok);
  const shown = failed.length > max ? max - 1 : failed.length;
  const lines = failed.slice(0, shown).map((c) => {
    const title = `agentgate verify: ${c.check}`;
    const where = c.snapshotId ? `snapshot ${c.snapshotId}` : c.runId ? `run ${c.runId}` : 'store';
    return `::error title=${escapeProperty(title)}::${escapeData(`${where}: ${c.detail}`)}`;
  });
  if (shown < failed.length)
    lines.push(
      `::error title=${escapeProperty('agentgate verify')}::${escapeData(`${failed.length - shown} more failed checks not annotated; see the verify output`)}`,
    );
  return lines;
}

/** Workflow command data: `%`, CR and LF are escaped so one message stays one command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow command properties additionally escape `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
