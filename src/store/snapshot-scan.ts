import type { Snapshot } from '../../types/snapshot.js';
import type { StoreCorruptError } from '../errors.js';

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
 * caller that needs only the snapshots naming a path or a run skips the cost of validating the rest.
 */
export class SnapshotScan {
  private readonly parsed = new Map<string, Snapshot>();
  private checked = false;
  private ids: Set<string> | undefined;

  constructor(
    private readonly texts: readonly SnapshotText[],
    /** The snapshot of a file's text; STORE_CORRUPT naming the file when it is none. */
    private readonly parse: (t: SnapshotText) => Snapshot,
    /** The files that could not be read or named. */
    private readonly problems: readonly StoreCorruptError[] = [],
  ) {}

  /**
   * The snapshots whose text may hold one of `strings` (a superset: check the fields), plus every
   * one picked before. STORE_CORRUPT for the first file that does not load where it may matter,
   * as every provenance command reads the store: one that cannot be read or named, one that is
   * not JSON at all (truncated: it may have named anything), or one picked that is no snapshot.
   * A JSON text without the strings holds none of them, whatever else it holds: it is not parsed.
   */
  pick(strings: readonly string[]): Snapshot[] {
    this.assertJson();
    const out: Snapshot[] = [];
    for (const t of this.texts) {
      if (!this.parsed.has(t.id) && mayHoldString(t.text, strings)) this.parsed.set(t.id, this.parse(t));
      const s = this.parsed.get(t.id);
      if (s !== undefined) out.push(s);
    }
    return out;
  }

  /** Whether a file of snapshot `id` was read (it may still be no snapshot, or another run's). */
  has(id: string): boolean {
    this.ids ??= new Set(this.texts.map((t) => t.id));
    return this.ids.has(id);
  }

  /** mayHoldString's answer holds for JSON text alone: every file must be JSON (JSON.parse, no schema). */
  private assertJson(): void {
    if (this.checked) return;
    const [problem] = this.problems;
    if (problem !== undefined) throw problem;
    for (const t of this.texts)
      try {
        JSON.parse(t.text);
      } catch {
        this.parse(t); // throws STORE_CORRUPT naming the file: its text is no JSON
      }
    this.checked = true;
  }
}
