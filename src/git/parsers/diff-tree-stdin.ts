import { unparseable } from './nul-records.js';

/**
 * `git diff-tree --stdin -r -z --name-only` fed one `<tree> <tree>` line per pair: for each pair
 * git prints the line it read (ended by a newline) and then the changed paths, each ended by NUL.
 * Returns the paths of each pair, in the order of `pairs` (which must be distinct). A header is
 * recognised only as a whole line naming one of the later pairs, so a path that holds a newline
 * stays a path.
 */
export function parseDiffTreeStdin(
  text: string,
  pairs: ReadonlyArray<readonly [string, string]>,
): string[][] {
  const headers = new Map(pairs.map(([from, to], i) => [`${from} ${to}`, i]));
  const out: string[][] = pairs.map(() => []);
  let current = -1;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const nul = text.indexOf('\0', pos);
    const header = nl >= 0 && (nul < 0 || nl < nul) ? headers.get(text.slice(pos, nl)) : undefined;
    if (header !== undefined && header > current) {
      current = header;
      pos = nl + 1;
      continue;
    }
    const paths = out[current];
    if (paths === undefined || nul < 0)
      throw unparseable('diff-tree --stdin', 'a path outside a pair or without its NUL', text.slice(pos));
    paths.push(text.slice(pos, nul));
    pos = nul + 1;
  }
  return out;
}
