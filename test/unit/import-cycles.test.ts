/**
 * No module of src/ or types/ imports itself through others (issue 29 item 3): every relative
 * import counts, static or dynamic, except type-only ones, which leave no trace at run time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IMPORT =
  /(?:^|[;\s])(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
}

/** The relative modules `file` imports for their values, as paths from the root. */
function valueImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    if (spec === undefined || m[2] !== undefined) continue;
    found.push(relative(ROOT, resolve(ROOT, dirname(file), spec.replace(/\.js$/, '.ts'))));
  }
  return found;
}

/** Every cycle, each once, as the list of files from its smallest name round to it again. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found = new Map<string, string[]>();
  const walk = (file: string, path: string[]): void => {
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const loop = path.slice(at);
        const start = loop.indexOf([...loop].sort()[0] as string);
        const key = [...loop.slice(start), ...loop.slice(0, start)];
        found.set(key.join(' -> '), [...key, key[0] as string]);
      } else if (path.length < 40) walk(next, [...path, next]);
    }
  };
  for (const file of graph.keys()) walk(file, [file]);
  return [...found.values()];
}

describe('the import graph', () => {
  it('reads static, dynamic and re-exporting imports, and skips type-only ones', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from '../c.js';",
      "export type { D } from './d.js';",
      "const e = await import('./e.js');",
      "import 'node:fs';",
    ].join('\n');
    expect(valueImports('src/x/y.ts', text)).toEqual(['src/x/a.ts', 'src/c.ts', 'src/x/e.ts']);
  });

  it('has no cycle in src/ and types/', () => {
    const files = [...sources('src'), ...sources('types')];
    const graph = new Map(files.map((f) => [f, valueImports(f, readFileSync(join(ROOT, f), 'utf8'))]));
    expect(cycles(graph)).toEqual([]);
  });
});
