/**
 * The known name nearest to a mistyped one (`verfy` -> `verify`, `checkpoint trak` -> `checkpoint
 * track`), or null when none is close: at most a third of the word's letters differ.
 */
export function nearestName(typed: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (best === null || distance < best.distance) best = { name, distance };
  }
  return best !== null && best.distance <= Math.max(1, Math.floor(typed.length / 3)) ? best.name : null;
}

/** Levenshtein distance, with a swap of two neighbouring letters counting as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const up = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
