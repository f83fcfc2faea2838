/**
 * Bidirectional-text controls (the Trojan Source characters) reorder what is shown around them:
 * `invoice<U+202E>fdp.sh` reads as a PDF. The reports show each one as a visible escape instead.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every bidirectional-text control written as `<U+XXXX>`. */
export function showBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, codePoint);
}

/** `<U+XXXX>` for one character. */
function codePoint(c: string): string {
  return `<U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}>`;
}

// eslint-disable-next-line no-control-regex -- control characters are what is shown
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Characters that take no room (zero-width spaces and joiners, the soft hyphen, BOM) and line separators. */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2028\u2029\u2060-\u2064\ufeff]/g;

/**
 * A file name as the reports show it: `showBidi`, and control and invisible characters as
 * `<U+XXXX>` too (a newline in a name would read as a space, or as a line break between two names;
 * `package<U+200B>.json` would read as `package.json`), as the CLI's tables show them.
 */
export function showPath(path: string): string {
  return showBidi(path).replace(CONTROLS, codePoint).replace(INVISIBLE, codePoint);
}

/**
 * A file's diff as the HTML page embeds it: `showBidi`, and each carriage return that ends no line
 * (a CR inside a line of the file) as `<U+000D>`. The page's diff renderer reads a lone CR as a
 * line break, so a line `x\r@@ -1 +1 @@\r-y` would render as a hunk of its own, with lines the
 * change never had; CRLF line ends are left as they are.
 */
export function showDiffText(text: string): string {
  return (
    showBidi(text)
      .replace(/\r(?!\n)/g, '<U+000D>')
      // The renderer also drops git's `\ No newline at end of file` wherever it stands, inside a
      // line of the file too: there its backslash is shown as an escape, git's own line is left.
      .replace(/(?<!^)\\(?= No newline at end of file)/gm, '<U+005C>')
  );
}
