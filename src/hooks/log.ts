import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoOf } from '../fs/atomic.js';
import { firstChars } from '../text.js';

/** The log rotates here: the current file becomes `hooks.log.1` (replacing the previous one). */
export const HOOK_LOG_MAX_BYTES = 1024 * 1024;
/** A line is cut here, so that no input can make one entry large. */
const MAX_LINE = 2000;
/**
 * What a line shows escaped, as the CLI's printable() does: C0 and C1 controls (ESC would drive the
 * terminal of whoever reads the log with cat or tail), bidirectional-text controls, line and
 * paragraph separators and invisible format characters; and half a surrogate pair, which UTF-8 cannot
 * hold (the file would get U+FFFD in its place).
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are what we look for
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Appends one line to the hook log, rotating it past HOOK_LOG_MAX_BYTES so that it stays under
 * twice that. Never throws: returns why the line could not be written (a read-only or full home),
 * or null.
 */
export async function appendHookLog(file: string, line: string): Promise<string | null> {
  // CR and LF escaped too (not flattened to a space): a line break inside a session id stays visible.
  const text = firstChars(escapeHidden(line), MAX_LINE).text;
  try {
    await mkdir(dirname(file), { recursive: true });
    const size = await stat(file).then(
      (st) => st.size,
      () => 0,
    );
    // Two hooks rotating at once: the second rename finds no file, which is fine.
    if (size >= HOOK_LOG_MAX_BYTES) await rename(file, `${file}.1`).catch(() => undefined);
    await appendFile(file, `${text}\n`);
    return null;
  } catch (error) {
    return `could not write the hook log ${file} (${errnoOf(error)})`;
  }
}

/** Every character of HIDDEN as `\xNN` or `\uNNNN`, so that a log line is one line of plain text. */
function escapeHidden(text: string): string {
  return text.replace(HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
