/**
 * The bundled bin: a plain `#!/usr/bin/env node` entry (src/cli/bin.ts) that holds none of the
 * library, turns on Node's compile cache and loads the CLI's chunks beside it. Structural, not timed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';

describe('the bundled CLI', () => {
  it('starts from a small plain-Node entry that holds none of the library and loads the chunks beside it', () => {
    expect(statSync(CLI).size).toBeLessThan(1024);
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
    const entry = readFileSync(CLI, 'utf8');
    expect(entry.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(entry).toContain('enableCompileCache');
    expect(entry).not.toMatch(/rev-parse|write-tree|ZodError/);
    const chunks = readdirSync(join(dirname(CLI), 'chunks'));
    const library = chunks.filter((name) =>
      readFileSync(join(dirname(CLI), 'chunks', name), 'utf8').includes('rev-parse'),
    );
    expect(library.length).toBeGreaterThan(0);
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
