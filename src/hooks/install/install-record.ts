import { createHash } from 'node:crypto';
import { lstat, open, readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HookInstallRecord } from '../../../types/hook-install.js';
import { replaceFileAtomic } from '../../fs/atomic.js';
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

/** Written before the config file: a record whose config file was then not written no longer matches it. */
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
 * The record after an install wrote `written` over `found` (null: no file): a chain of installs
 * keeps the first one's knowledge while the file stays as the last one wrote it. `undo` is kept
 * only when the text it leads back to holds none of ours (`foundHasOurs`: an install from before
 * records, or edits since), so that uninstall never puts an old entry of ours back.
 */
export function nextRecord(
  file: string,
  old: HookInstallRecord | null,
  found: string | null,
  written: string,
  step: { undo: Splice[]; foundHasOurs: boolean; dirs: readonly string[] },
): HookInstallRecord {
  // Deepest first: a directory's path is longer than its parent's.
  const dirs = [...new Set([...step.dirs, ...(old?.dirs ?? [])])].sort((x, y) => y.length - x.length);
  const base = { version: 1 as const, file, written: sha256(written), dirs };
  if (found === null) return { ...base, created: true };
  // A file install created and the user since edited is still one install created: it goes on
  // uninstall once nothing of the user's is in it (install.ts), never given back "exactly".
  if (old?.created === true && old.written !== sha256(found)) return { ...base, created: true };
  if (old !== null && old.written === sha256(found))
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
