import type { Snapshot } from '../../types/snapshot.js';

/**
 * True unless the JSON text surely holds no string equal to one of `strings`. Without `\u` and
 * `\/` escapes, JSON (as JSON.stringify writes it, and as any writer must for the other escapes)
 * spells each string one way only: the text then holds the string's JSON literal, quotes
 * included, wherever it holds the string. A text with such escapes may spell a string another
 * way, so it is always a maybe. Pure; false positives only.
 */
export function mayHoldString(text: string, strings: readonly string[]): boolean {
  if (text.includes('\\u') || text.includes('\\/')) return true;
  return strings.some((s) => text.includes(JSON.stringify(s)));
}

/** One snapshot file, read but not yet parsed. */
export interface SnapshotText {
  id: string;
  text: string;
}

/**
 * Every snapshot file of a store read once, each parsed and validated only when asked for: a
 * caller that needs only the snapshots naming a path or a run skips the cost of parsing the rest.
 */
export class SnapshotScan {
  private readonly parsed = new Map<string, Snapshot | null>();

  constructor(
    private readonly texts: readonly SnapshotText[],
    private readonly parse: (t: SnapshotText) => Snapshot,
  ) {}

  /**
   * The usable snapshots whose text may hold one of `strings` (a superset: check the fields), plus
   * every one picked before. A file that does not parse or validate is left out, as `list` does.
   */
  pick(strings: readonly string[]): Snapshot[] {
    const out: Snapshot[] = [];
    for (const t of this.texts) {
      if (!this.parsed.has(t.id) && mayHoldString(t.text, strings)) this.parsed.set(t.id, this.tryParse(t));
      const s = this.parsed.get(t.id);
      if (s !== undefined && s !== null) out.push(s);
    }
    return out;
  }

  private tryParse(t: SnapshotText): Snapshot | null {
    try {
      return this.parse(t);
    } catch {
      return null;
    }
  }
}
