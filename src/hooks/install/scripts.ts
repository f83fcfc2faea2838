import { chmod, lstat, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AgentConfigInvalidError } from '../../errors.js';
import { errnoOf, writeFileAtomic } from '../../fs/atomic.js';
import { CLINE_CARRY_ON } from '../agents/cline.js';
import { isWrittenCommand } from './command.js';
import type { EntryChange } from './entries.js';
import type { InstallTarget } from './targets.js';

/** The line that marks a hook file as ours: any other file of the same name is the user's. */
const MARKER =
  '# agentgate-snapshotter checkpoints (written by "hook install cline"; "hook uninstall cline" removes it)';

const HEAD = `#!/bin/sh\n${MARKER}\n`;

/**
 * What the script prints when our command could not run at all (the Node or the package it names
 * was moved or removed: exit 127 or 1, nothing on stdout): Cline cancels the action on a non-zero
 * exit or a missing answer, and a hook never fails its agent. `hook cline` itself always exits 0.
 */
const FALLBACK = ` || printf '%s\\n' '${CLINE_CARRY_ON}'`;

/** Cline's hooks: one executable per event, named after it, in the hooks directory. */
export function clineScript(command: string): string {
  // Cline reads {"cancel": false} from our stdout (hook cline prints it, whatever happens).
  return `${HEAD}${command}${FALLBACK}\n`;
}

/** The script earlier releases wrote (`exec` of the command, no fallback): still ours, and updated. */
function execScript(command: string): string {
  return `${HEAD}exec ${command}\n`;
}

export interface ScriptsPlan {
  writes: Array<{ file: string; text: string | null }>;
  changes: Array<{ event: string; change: EntryChange }>;
  leftAlone: string[];
}

/**
 * Which hook files to write (or, with `command` null, remove); a file of the user's, and any
 * symbolic link (even one that names nothing), is left alone: reported by install, and by
 * uninstall when it carries our marker (one of ours the user changed). Ours that lost its exec
 * bit is written again.
 */
export async function planScripts(target: InstallTarget, command: string | null): Promise<ScriptsPlan> {
  const plan: ScriptsPlan = { writes: [], changes: [], leftAlone: [] };
  // Under a file there is no hook of ours to remove: uninstall has nothing to do.
  if ((await hooksDirState(target.file, command !== null)) === 'under-file') return plan;
  for (const event of target.events) {
    const file = join(target.file, event);
    const current = await readHook(file);
    if (current !== null && 'theirs' in current) {
      if (command !== null || current.marked) plan.leftAlone.push(file);
      continue;
    }
    const wanted = command === null ? null : clineScript(command);
    if (current === null ? wanted === null : current.text === wanted && current.executable) continue;
    plan.writes.push({ file, text: wanted });
    plan.changes.push({
      event,
      change: wanted === null ? 'removed' : current === null ? 'added' : 'updated',
    });
  }
  return plan;
}

/**
 * The hooks directory, or nothing yet (`ok`); `under-file` (uninstall only) when a file stands where
 * one of its parent directories goes: anything else is not ours to replace, and install refuses it.
 */
async function hooksDirState(dir: string, install: boolean): Promise<'ok' | 'under-file'> {
  const stats = await stat(dir).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    const file = error.code === 'ENOTDIR' ? await fileAbove(dir) : null;
    if (file === null) throw cannotUse(dir, errnoOf(error), error);
    if (!install) return 'under-file' as const;
    throw underFile(dir, file, error);
  });
  if (stats === 'under-file') return stats;
  if (stats !== null && !stats.isDirectory()) throw cannotUse(dir, 'not a directory');
  return 'ok';
}

/** The nearest of `dir`'s parent directories that is a file (or anything but a directory), or null. */
async function fileAbove(dir: string): Promise<string | null> {
  for (let at = dirname(dir); at !== dirname(at); at = dirname(at)) {
    const st = await stat(at).catch(() => null);
    if (st !== null) return st.isDirectory() ? null : at;
  }
  return null;
}

/**
 * A file where a directory of the hooks' path goes: most often `.clinerules` itself, the single
 * rules file of Cline's older releases, which a project keeps beside its hooks only as a directory.
 */
function underFile(dir: string, file: string, cause: unknown): AgentConfigInvalidError {
  const rules =
    basename(file) === '.clinerules'
      ? ` (Cline's rules as a single file): make it a directory that holds them, such as ${join(file, 'rules.md')} (Cline reads the rules of every file there), and run the command again, or use --user`
      : '; move it aside and run the command again, or use --user';
  return new AgentConfigInvalidError(`cannot make ${dir} for Cline's hooks: ${file} is a file${rules}`, {
    cause,
    details: { file: dir, blockedBy: file },
  });
}

/**
 * A hook file of ours (its text, and whether it is executable), null when there is none, or
 * something of the user's: a directory, a symbolic link, a file that is not exactly a script we
 * write (`marked`: one that carries our marker line, which the user changed).
 */
async function readHook(
  file: string,
): Promise<{ text: string; executable: boolean } | { theirs: true; marked: boolean } | null> {
  const stats = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw cannotUse(file, errnoOf(error), error);
  });
  if (stats === null) return null;
  if (!stats.isFile()) return { theirs: true, marked: false };
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw cannotUse(file, errnoOf(error), error);
  });
  if (!isOurScript(text))
    return { theirs: true, marked: text.split(/\r?\n/).some((l) => l.replace(/^\uFEFF/, '') === MARKER) };
  // Executable for its owner is enough: a user's chmod 700 is theirs to keep.
  return { text, executable: (stats.mode & 0o100) !== 0 };
}

/**
 * Whether a hook file's text is exactly one `clineScript` (or an earlier release's `execScript`)
 * writes, for any command of ours it may run (its quoted paths may hold line breaks: the command is
 * all between the marker line and the fallback).
 */
function isOurScript(text: string): boolean {
  if (!text.startsWith(HEAD) || !text.endsWith('\n')) return false;
  const body = text.slice(HEAD.length, -1);
  const command = body.endsWith(FALLBACK)
    ? body.slice(0, -FALLBACK.length)
    : body.startsWith('exec ')
      ? body.slice('exec '.length)
      : null;
  return (
    command !== null &&
    isWrittenCommand(command, 'cline') &&
    (text === clineScript(command) || text === execScript(command))
  );
}

function cannotUse(path: string, why: string, cause?: unknown): AgentConfigInvalidError {
  return new AgentConfigInvalidError(
    `cannot use ${path} for Cline's hooks (${why}); move what stands there aside and run the command again`,
    { ...(cause === undefined ? {} : { cause }), details: { file: path } },
  );
}

export async function applyScripts(plan: ScriptsPlan): Promise<void> {
  for (const { file, text } of plan.writes) {
    if (text === null) await rm(file, { force: true });
    else {
      await writeFileAtomic(file, text);
      await chmod(file, 0o755);
    }
  }
}
