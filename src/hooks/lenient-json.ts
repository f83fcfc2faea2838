/**
 * Windsurf can send raw control characters (a prompt's newlines) inside JSON strings, which
 * JSON.parse rightly refuses. Inside strings only, each one becomes its `\u00XX` escape; nothing
 * outside a string and no escape sequence is changed, so valid JSON parses exactly as it would.
 */
export function escapeControlCharsInStrings(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (inString && code < 0x20) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
      escaped = false;
      continue;
    }
    out += ch;
    if (escaped) escaped = false;
    else if (inString && ch === '\\') escaped = true;
    else if (ch === '"') inString = !inString;
  }
  return out;
}
