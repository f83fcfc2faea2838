import { lstat } from 'node:fs/promises';
import type { FileDiff, SessionRestoreResult } from '../../../types/checkpoint.js';
import { RestoreConflictError } from '../../errors.js';
import { readEscapedBytes } from '../../fs/path-bytes.js';
import { escapeHidden } from '../../text.js';
import { countOf, printable } from '../output.js';
import { PROGRAM } from '../spec.js';

/** What the checkpoint commands print for people (checkpoint.ts), and how they read a PATH. */

/**
 * A file's path for people: printable, and each byte of its name that is not UTF-8 as `\udcNN`, as
 * JSON writes it and as `revert` takes it back (the bytes themselves would print as U+FFFD).
 */
export function pathText(path: string): string {
  return escapeHidden(printable(path), { halves: true });
}

/** One file of diff-full for people: a header with its counts, then its contents before and after. */
export function fullText(d: FileDiff): string {
  const head = `=== ${d.status} ${pathText(d.file)} (${d.binary ? 'binary' : `+${d.additions} -${d.deletions}`})`;
  if (d.binary) return head;
  const body = (label: string, text: string, present: boolean) =>
    present
      ? `--- ${label}\n${text}${text === '' || text.endsWith('\n') ? '' : '\n\\ No newline at end of file\n'}`
      : `--- ${label}: (none)\n`;
  return `${head}\n${body('before', d.before, d.status !== 'added')}${body('after', d.after, d.status !== 'deleted')}`.replace(
    /\n$/,
    '',
  );
}

/** What a restore or revert did not touch, and why, for people (`leftAlone` in JSON). */
export function leftAloneLines(paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  return [
    'Left alone (ignored now, skipped now or by the checkpoint, changed while this ran, or something else stands there: a directory, a link, a file never captured):',
    ...paths.map((p) => `  ${pathText(p)}`),
  ];
}

/** A session's restore for people; files left alone in conflict make it RESTORE_CONFLICT (exit 3). */
export function restorePrompt(r: SessionRestoreResult) {
  const session = printable(r.session);
  const of = `session ${session} before prompt ${r.prompt}`;
  const undo = r.safety === null ? [] : [`Undo with: ${PROGRAM} checkpoint restore ${r.safety}`];
  // With --force a conflict is overwritten, unless something of someone else's stands in its way
  // (a file where its directory was): that one is still in conflict.
  const blocked = new Set(r.leftAlone);
  const unresolved = r.forced ? r.conflicts.filter((p) => blocked.has(p)) : r.conflicts;
  if (!r.dryRun && unresolved.length > 0)
    throw new RestoreConflictError(
      `restored ${countOf(r.restored.length, 'file')}${named(r.restored)} and deleted ${r.deleted.length}${named(r.deleted)} of ${of}, but left alone ${unresolved.length} that another session or a person changed after it, or where something else now stands (a repository made since, a directory, a link): ${unresolved.map(pathText).join(', ')}; ${r.forced ? 'something stands where each would go: move it aside, then run again' : 'run again with --force to put back those changed by others'} (--dry-run shows the plan). ${undo.join('')}`,
      { details: r },
    );
  const listed = r.forced ? r.conflicts.filter((p) => !blocked.has(p)) : r.conflicts;
  const lines = [
    r.dryRun
      ? `Would restore ${countOf(r.restored.length, 'file')} and delete ${r.deleted.length} (${of}); nothing changed.`
      : `Restored ${countOf(r.restored.length, 'file')}, deleted ${r.deleted.length} (${of}).`,
    ...r.restored.map((p) => `  restore ${pathText(p)}`),
    ...r.deleted.map((p) => `  delete  ${pathText(p)}`),
    ...(listed.length === 0
      ? []
      : [
          `${r.forced ? (r.dryRun ? 'Would overwrite' : 'Overwrote') : 'In conflict'} (changed by another session or a person after ${session}):`,
          ...listed.map((p) => `  ${pathText(p)}`),
        ]),
    ...(r.forced && unresolved.length > 0
      ? [
          'Would stay in conflict (something of theirs stands where each would go; the restore fails RESTORE_CONFLICT):',
          ...unresolved.map((p) => `  ${pathText(p)}`),
        ]
      : []),
    ...leftAloneLines(r.leftAlone),
    ...undo,
  ];
  return { json: r, human: () => lines.join('\n') };
}

/** ` (a, b)`: the files a RESTORE_CONFLICT did restore or delete, named as the success text names them. */
function named(paths: readonly string[]): string {
  return paths.length === 0 ? '' : ` (${paths.map(pathText).join(', ')})`;
}

/**
 * A PATH as given, with each `\udcNN` read as the byte 0xNN (readEscapedBytes), so that a name that
 * is not UTF-8 can be given as JSON output prints it. A file whose name really holds that text,
 * and exists, is taken as written.
 */
export async function pathArgument(path: string): Promise<string> {
  const decoded = readEscapedBytes(path);
  if (decoded === null) return path;
  return (await lstat(path).catch(() => null)) !== null ? path : decoded;
}

/** An upkeep failure in words (the checkpoint itself was recorded). */
export function upkeepText(error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `the checkpoint was recorded, but packing or pruning the store failed: ${why}`;
}
