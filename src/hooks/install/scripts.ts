import { chmod, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
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
  for (const event of target.events) {
    const file = join(target.file, event);
    const current = await readFile(file, 'utf8').catch(() => null);
    const ours = current !== null && current.split('\n').includes(MARKER);
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

export async function applyScripts(plan: ScriptsPlan): Promise<void> {
  for (const { file, text } of plan.writes) {
    if (text === null) await rm(file, { force: true });
    else {
      await writeFileAtomic(file, text);
      await chmod(file, 0o755);
    }
  }
}
