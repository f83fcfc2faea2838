/** Everything the CLI shows people: plain tables, colour only on a TTY and never with NO_COLOR. */
export function useColour(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;

export function paint(text: string, colour: Colour, on: boolean): string {
  return on ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
}

/** A left-aligned table; numeric-looking columns are right-aligned. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => /^[+-]?\d+$/.test(r[i] ?? '')));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function short(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 10) : '-';
}
