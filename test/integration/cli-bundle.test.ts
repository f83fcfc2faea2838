/**
 * The bundled bin: a plain `#!/usr/bin/env node` entry (src/cli/bin.ts) that holds none of the
 * library, turns on Node's compile cache and requires the CLI (one CommonJS file) beside it.
 * Structural, not timed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyRanges, markEager } from '../../scripts/eager-compile.mjs';
import { CLI, runCli } from '../helpers/cli.js';

describe('the bundled CLI', () => {
  it('starts from a small plain-Node entry that holds none of the library and requires the CLI beside it', () => {
    expect(statSync(CLI).size).toBeLessThan(2048);
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
    const entry = readFileSync(CLI, 'utf8');
    expect(entry.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(entry).toContain('enableCompileCache');
    expect(entry).toContain('require("./main.js")');
    expect(entry).not.toMatch(/rev-parse|write-tree|ZodError|import\(/);
    // CommonJS, as dist/bin/package.json tells Node: no ES module loader at start-up.
    expect(JSON.parse(readFileSync(join(dirname(CLI), 'package.json'), 'utf8'))).toEqual({
      type: 'commonjs',
    });
    expect(readFileSync(join(dirname(CLI), 'main.js'), 'utf8')).toContain('rev-parse');
  });

  it('has V8 compile, with the file, every function expression `runs --json` runs (scripts/eager-compile.mjs)', () => {
    const home = mkdtempSync(join(tmpdir(), 'bundle-eager-'));
    try {
      const main = join(dirname(CLI), 'main.js');
      const env = { PATH: process.env.PATH ?? '', HOME: home, AGENTGATE_HOME: home };
      const lazy = lazyRanges(main, [{ args: ['runs', '--json'], cwd: home, env }]);
      expect(lazy.size).toBeGreaterThan(0); // declarations and methods, which cannot be marked
      expect(markEager(readFileSync(main, 'utf8'), lazy).marked).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
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
