/**
 * The bundled bin loads a command's code only when that command runs: the entry chunk and what
 * it imports statically are small and hold none of the library (zod, the snapshotter, git), so
 * `--version` and `--help` cost about what starting Node costs. Structural, not timed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';

/** The files `file` imports statically, recursively (esbuild's minified `from"./chunks/x.js"`). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(
    /(?:^|[;\s}])(?:import|export)\s*(?:[^"'()]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g,
  ))
    staticClosure(join(dirname(file), m[1] as string), seen);
  return seen;
}

describe('the bundled CLI', () => {
  it('starts from a small entry that imports none of the library statically, and loads each command module on demand', () => {
    const closure = [...staticClosure(CLI)];
    const bytes = closure.reduce((sum, f) => sum + statSync(f).size, 0);
    expect(bytes).toBeLessThan(64 * 1024);
    const text = closure.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(text).not.toMatch(/rev-parse|write-tree|ZodError/);
    const entry = readFileSync(CLI, 'utf8');
    // sh reads the first two lines when the bin runs as a program (test/integration/cli-launcher.test.ts).
    expect(entry.startsWith("#!/bin/sh\n':' //;")).toBe(true);
    // The command registry (in the entry or a small chunk it imports) loads each command module on demand.
    expect([...text.matchAll(/import\(["']\.\/(chunks\/)?[^"']+["']\)/g)].length).toBeGreaterThanOrEqual(3);
  });

  it('loads the yaml parser, kept out of start-up, when a config file is there to read', () => {
    const home = mkdtempSync(join(tmpdir(), 'bundle-config-'));
    try {
      writeFileSync(join(home, 'config.yaml'), 'onDirty: sometimes\n');
      const bad = runCli(['runs', '--json', '--home', home]);
      expect([bad.status, (bad.json() as { error: { code: string } }).error.code]).toEqual([
        1,
        'CONFIG_INVALID',
      ]);
      expect(bad.stdout).toContain('onDirty');
      writeFileSync(join(home, 'config.yaml'), 'onDirty: error\n');
      const good = runCli(['runs', '--json', '--home', home]);
      expect([good.status, good.json()]).toEqual([0, []]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
