import { constants } from 'node:fs';
import { appendFile, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoOf } from '../fs/atomic.js';
import { escapeHidden, firstChars } from '../text.js';
import { makeDirs } from '../fs/make-dirs.js';

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;

/** The log rotates here: the current file becomes `hooks.log.1` (replacing the previous one). */
export const HOOK_LOG_MAX_BYTES = 1024 * 1024;
/** A line is cut here, so that no input can make one entry large. */
const MAX_LINE = 2000;
/**
 * Appends one line to the hook log, rotating it past HOOK_LOG_MAX_BYTES so that it stays under
 * twice that. Never throws: returns why the line could not be written (a read-only or full home),
 * or null.
 */
export async function appendHookLog(file: string, line: string): Promise<string | null> {
  // CR and LF escaped too (not flattened to a space): a line break inside a session id stays visible.
  const text = firstChars(escapeHidden(line, { halves: true }), MAX_LINE).text;
  try {
    await makeDirs(dirname(file));
    const size = await stat(file).then(
      (st) => st.size,
      () => 0,
    );
    // Two hooks rotating at once: the second rename finds no file, which is fine.
    if (size >= HOOK_LOG_MAX_BYTES) await rename(file, `${file}.1`).catch(() => undefined);
    // Non-blocking: a FIFO there with no reader fails at once (ENXIO) instead of holding the hook
    // for ever, past its time budget (a pending open keeps even process.exit from ending it).
    await appendFile(file, `${text}\n`, { flag: APPEND_FLAGS });
    return null;
  } catch (error) {
    return `could not write the hook log ${file} (${errnoOf(error)})`;
  }
}
