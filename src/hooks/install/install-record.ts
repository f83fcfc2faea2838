import { createHash } from 'node:crypto';
import { lstat, open, readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HookInstallRecord } from '../../../types/hook-install.js';
import { replaceFileAtomic } from '../../fs/atomic.js';
import { stampOf } from '../../fs/stamps.js';
import type { Splice } from './undo.js';

/**
 * What install keeps about each config file it wrote (types/hook-install.ts), one file per config
 * file under `<home>/hooks/installs/`: without it uninstall cannot tell a file install created from
 * one the user had that holds as little (`{}`), nor give a user's file back byte for byte.
 */

export function recordPath(home: string, file: string): string {
  return join(home, 'hooks', 'installs', `${sha256(file).slice(0, 32)}.json`);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The record of `file`, or null (none, unreadable, or of another file). */
export async function readRecord(home: string, file: string): Promise<HookInstallRecord | null> {
  try {
    const parsed = HookInstallRecord.safeParse(JSON.parse(await readFile(recordPath(home, file), 'utf8')));
    return parsed.success && parsed.data.file === file ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Written before the config file (a crash in between leaves the record, whose `written` the file
 * then does not match, and whose created file has no stamp yet), and put back when that write
 * fails (recordThen).
 */
export async function writeRecord(home: string, record: HookInstallRecord): Promise<void> {
  // 0600: the splices may hold a few bytes of the user's file.
  await replaceFileAtomic(recordPath(home, record.file), async (temp) => {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(record, null, 2)}\n`);
    } finally {
      await handle.close();
    }
  });
}

export async function dropRecord(home: string, file: string): Promise<void> {
  await rm(recordPath(home, file), { force: true });
}

/**
 * `record` written, then `write` run: when that fails, the record is put back as it was (`old`;
 * none: dropped) and the directories the write was to create (`dirs`) go when empty, so that a
 * failed install leaves no record claiming a file or a directory it did not make.
 */
export async function recordThen(
  home: string,
  old: HookInstallRecord | null,
  record: HookInstallRecord,
  dirs: readonly string[],
  write: () => Promise<void>,
): Promise<void> {
  await writeRecord(home, record);
  try {
    await write();
  } catch (error) {
    await (old === null ? dropRecord(home, record.file) : writeRecord(home, old)).catch(() => undefined);
    await removeEmptyDirs(dirs);
    throw error;
  }
}

/**
 * Whether `found`, the text at `file` now, is the very file install created: the bytes install
 * last wrote, in the file it made (its stamp: a file removed and made again, by a re-clone or a
 * teammate's commit, is the user's even with the same bytes).
 */
export async function isCreatedFile(
  record: HookInstallRecord | null,
  file: string,
  found: string | null,
): Promise<boolean> {
  if (record?.created !== true || record.stamp === undefined || found === null) return false;
  return record.written === sha256(found) && record.stamp === (await stampOf(file)).sig;
}

/** A created file's record with the stamp of the file install just wrote (isCreatedFile). */
export async function stamped(record: HookInstallRecord): Promise<HookInstallRecord> {
  return record.created ? { ...record, stamp: (await stampOf(record.file)).sig } : record;
}

/**
 * The record after an install wrote `written` over `found` (null: no file): a chain of installs
 * keeps the first one's knowledge while the file stays as the last one wrote it (a file install
 * created: while it is that very file, `made`, isCreatedFile). Any other file found is the user's,
 * even one install once created (edited since, or made again by someone else): never removed.
 * `undo` is kept only when the text it leads back to holds none of ours (`foundHasOurs`: an install
 * from before records, or edits since), so that uninstall never puts an old entry of ours back.
 */
export function nextRecord(
  file: string,
  old: HookInstallRecord | null,
  found: string | null,
  written: string,
  step: { undo: Splice[]; foundHasOurs: boolean; dirs: readonly string[]; made: boolean },
): HookInstallRecord {
  const same = old !== null && found !== null && old.written === sha256(found) && (!old.created || step.made);
  // Deepest first: a directory's path is longer than its parent's.
  const kept = same || found === null ? (old?.dirs ?? []) : [];
  const dirs = [...new Set([...step.dirs, ...kept])].sort((x, y) => y.length - x.length);
  const base = { version: 1 as const, file, written: sha256(written), dirs };
  if (found === null) return { ...base, created: true };
  if (same)
    return {
      ...base,
      created: old.created,
      ...(old.undo === undefined || old.created ? {} : { undo: [...step.undo, ...old.undo] }),
    };
  return { ...base, created: false, ...(step.foundHasOurs ? {} : { undo: step.undo }) };
}

/** The directories that writing into `dir` would create (its missing ancestors and itself), deepest first. */
export async function missingDirs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const exists = await lstat(at).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
    );
    if (exists || dirname(at) === at) return out;
    out.push(at);
  }
}

/** Each directory (deepest first) removed when empty; one that is not is left, and so are those above it. */
export async function removeEmptyDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) await rmdir(dir).catch(() => undefined);
}
