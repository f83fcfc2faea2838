import { chmod, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentConfigInvalidError } from '../../errors.js';
import { writeFileAtomic } from '../../fs/atomic.js';
import type { EntryChange } from './entries.js';
import type { InstallTarget } from './targets.js';

/** The line that marks a hook file as ours: any other file of the same name is the user's. */
const MARKER =
  '# agentgate-snapshotter checkpoints (written by "hook install cline"; "hook uninstall cline" removes it)';

/** Cline's hooks: one executable per event, named after it, in the hooks directory. */
export function clineScript(command: string): string {
  // Cline reads {"cancel": false} from our stdout (hook cline prints it, whatever happens).
  return `#!/bin/sh\n${MARKER}\nexec ${command}\n`;
}

export interface ScriptsPlan {
  writes: Array<{ file: string; text: string | null }>;
  changes: Array<{ event: string; change: EntryChange }>;
  leftAlone: string[];
}

/** Which hook files to write (or, with `command` null, remove); a file of the user's is left alone. */
export async function planScripts(target: InstallTarget, command: string | null): Promise<ScriptsPlan> {
  const plan: ScriptsPlan = { writes: [], changes: [], leftAlone: [] };
  await assertDirectory(target.file);
  for (const event of target.events) {
    const file = join(target.file, event);
    const current = await readHook(file);
    const ours = typeof current === 'string' && current.split('\n').includes(MARKER);
    if (current !== null && !ours) {
      if (command !== null) plan.leftAlone.push(file);
      continue;
    }
    const wanted = command === null ? null : clineScript(command);
    if (current === wanted || (current === null && wanted === null)) continue;
    plan.writes.push({ file, text: wanted });
    plan.changes.push({
      event,
      change: wanted === null ? 'removed' : current === null ? 'added' : 'updated',
    });
  }
  return plan;
}

/** The hooks directory, or nothing yet: anything else where it goes is not ours to replace. */
async function assertDirectory(dir: string): Promise<void> {
  const stats = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw cannotUse(dir, error.code ?? error.message, error);
  });
  if (stats !== null && !stats.isDirectory()) throw cannotUse(dir, 'not a directory');
}

/** A hook file's text, null when there is none, or the user's directory of that name (not ours). */
async function readHook(file: string): Promise<string | null | { directory: true }> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    if (error.code === 'EISDIR') return { directory: true as const };
    throw cannotUse(file, error.code ?? error.message, error);
  });
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
