/**
 * Bidirectional-text controls (the Trojan Source characters) reorder what is shown around them:
 * `invoice<U+202E>fdp.sh` reads as a PDF. The reports show each one as a visible escape instead.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every bidirectional-text control written as `<U+XXXX>`. */
export function showBidi(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (c) => `<U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}>`,
  );
}
