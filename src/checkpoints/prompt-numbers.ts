import { link, readdir, rm, writeFile } from 'node:fs/promises';
import { readRegularText } from '../fs/regular-file.js';
import { join } from 'node:path';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { randomHex } from '../fs/random.js';
import { CHECKPOINT_REF_PREFIX, entryOf } from './message.js';
import { pathKey } from './project-id.js';
import { makeDirs } from '../fs/make-dirs.js';

/**
 * Prompt numbers, claimed per session before the prompt's checkpoint is attempted: one file
 * `<store dir>/prompts/<session key>/<n>` per prompt, made exclusively so that two claims never
 * get one number. A prompt whose checkpoint is then skipped (hooks.timeoutMs, a lock held too
 * long) keeps its number, so "prompt N" stays the N-th prompt and `restore --prompt N` for a
 * skipped one finds nothing rather than the next prompt's checkpoint.
 *
 * A claim holds who delivered the prompt (the hook: agent and event) and a hash of its text. An
 * agent may run two agents' hooks for one prompt (the Copilot CLI runs those of Claude Code's
 * `.claude/settings.json` too, with the same session id): the same prompt delivered by another
 * hook that has not yet delivered the session's newest prompt is that prompt, not the next one.
 * A hook that has (`<n>-<hook key>` marks each one that delivered prompt n) starts the next.
 */

/** Who delivered a prompt: the hook (`claude-code UserPromptSubmit`) and the prompt's text. */
export interface PromptDelivery {
  hook: string;
  text: string;
}

/** A prompt number taken for a prompt; `duplicate`: the session's newest, which another hook delivered already. */
export interface PromptClaim {
  n: number;
  duplicate: boolean;
}

function sessionDir(promptsDir: string, session: string): string {
  return join(promptsDir, pathKey(session));
}

/**
 * The number of `session`'s prompt, taken (or, for a prompt another hook delivered just before,
 * that prompt's); null when it cannot be recorded (the checkpoint then numbers itself).
 */
export async function claimPromptNumber(
  promptsDir: string,
  session: string,
  delivery?: PromptDelivery,
): Promise<PromptClaim | null> {
  const dir = sessionDir(promptsDir, session);
  const claim =
    delivery === undefined
      ? ''
      : `${JSON.stringify({ hook: hash(delivery.hook), text: hash(delivery.text) })}\n`;
  try {
    await makeDirs(dir);
    for (;;) {
      const newest = Math.max(
        0,
        ...(await readdir(dir)).map((name) => (/^\d+$/.test(name) ? Number(name) : 0)),
      );
      if (delivery !== undefined && (await deliveredAgain(dir, newest, delivery)))
        return { n: newest, duplicate: true };
      if (await claimFile(dir, newest + 1, claim)) return { n: newest + 1, duplicate: false };
    }
  } catch {
    return null;
  }
}

/**
 * Whether this delivery is prompt `n` again, by another hook: `n`'s claim has its text and another
 * hook, and this hook (marked now, exclusively) had not delivered `n` yet.
 */
async function deliveredAgain(dir: string, n: number, delivery: PromptDelivery): Promise<boolean> {
  if (n === 0) return false;
  const text = (await readRegularText(join(dir, String(n)))) ?? '';
  let claimed: { hook?: unknown; text?: unknown };
  try {
    claimed = JSON.parse(text) as typeof claimed;
  } catch {
    return false; // a claim of an earlier release, or none
  }
  const hook = hash(delivery.hook);
  if (claimed.text !== hash(delivery.text) || claimed.hook === hook) return false;
  return create(join(dir, `${n}-${hook}`), '');
}

/** Claim `n` with its text in place at once (a hard link of a file written beside it): false if taken. */
async function claimFile(dir: string, n: number, text: string): Promise<boolean> {
  if (text === '') return create(join(dir, String(n)), '');
  const temp = join(dir, `.claim.${process.pid}.${randomHex(6)}.tmp`);
  await writeFile(temp, text);
  try {
    await link(temp, join(dir, String(n)));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // A file system without hard links: the claim first, its text a moment later.
    return create(join(dir, String(n)), text);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Records that `n` was used (a checkpoint numbered past the claims: a store from before them). */
export async function notePromptNumber(promptsDir: string, session: string, n: number): Promise<void> {
  const dir = sessionDir(promptsDir, session);
  await makeDirs(dir).catch(() => undefined);
  await create(join(dir, String(n)), '').catch(() => undefined);
}

/**
 * The prompt's number: the one claimed for it, unless a checkpoint of the session already carries
 * it (a store numbered before claims were kept) or none could be claimed; then one more than the
 * highest the session's checkpoints carry. The caller holds the lock, so two hooks of one session
 * never take the same number; claims raced by several prompts at once keep their own numbers
 * whatever order their checkpoints are recorded in.
 */
export function promptNumber(records: readonly RefRecord[], session: string, claimed: number | null): number {
  const numbers = records
    .filter((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX))
    .map(entryOf)
    .filter((e) => e.session === session)
    .map((e) => e.prompt ?? 0);
  return claimed !== null && !numbers.includes(claimed) ? claimed : Math.max(0, ...numbers) + 1;
}

/** 16 hex of SHA-256: a hook's name or a prompt's text, kept without the text itself. */
function hash(text: string): string {
  return pathKey(text);
}

async function create(path: string, text: string): Promise<boolean> {
  try {
    await writeFile(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
