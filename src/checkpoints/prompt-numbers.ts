import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathKey } from './project-id.js';

/**
 * Prompt numbers, claimed per session before the prompt's checkpoint is attempted: one empty file
 * `<store dir>/prompts/<session key>/<n>` per prompt, made with O_EXCL so that two claims never get
 * one number. A prompt whose checkpoint is then skipped (hooks.timeoutMs, a lock held too long)
 * keeps its number, so "prompt N" stays the N-th prompt and `restore --prompt N` for a skipped one
 * finds nothing rather than the next prompt's checkpoint.
 */

function sessionDir(promptsDir: string, session: string): string {
  return join(promptsDir, pathKey(session));
}

/** The next number of `session`, taken; null when it cannot be recorded (the checkpoint then numbers itself). */
export async function claimPromptNumber(promptsDir: string, session: string): Promise<number | null> {
  const dir = sessionDir(promptsDir, session);
  try {
    await mkdir(dir, { recursive: true });
    let n = Math.max(0, ...(await readdir(dir)).map((name) => (/^\d+$/.test(name) ? Number(name) : 0))) + 1;
    for (;;) {
      if (await create(join(dir, String(n)))) return n;
      n += 1;
    }
  } catch {
    return null;
  }
}

/** Records that `n` was used (a checkpoint numbered past the claims: a store from before them). */
export async function notePromptNumber(promptsDir: string, session: string, n: number): Promise<void> {
  const dir = sessionDir(promptsDir, session);
  await mkdir(dir, { recursive: true }).catch(() => undefined);
  await create(join(dir, String(n))).catch(() => undefined);
}

async function create(path: string): Promise<boolean> {
  try {
    await writeFile(path, '', { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
