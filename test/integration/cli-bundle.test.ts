/**
 * The bundled bin: a small entry (src/cli/bin.ts) that holds none of the library and runs the CLI
 * from one CommonJS file, dist/bin/cli.cjs, with V8's code cache (cli-code-cache.test.ts).
 * Structural, not timed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';

describe('the bundled CLI', () => {
  it('starts from a small entry that holds none of the library and runs the one-file bundle beside it', () => {
    expect(statSync(CLI).size).toBeLessThan(16 * 1024);
    const entry = readFileSync(CLI, 'utf8');
    expect(entry).not.toMatch(/rev-parse|write-tree|ZodError/);
    // sh reads the first two lines when the bin runs as a program (cli-launcher.test.ts).
    expect(entry.startsWith("#!/bin/sh\n':' //;")).toBe(true);
    const bundle = readFileSync(join(dirname(CLI), 'cli.cjs'), 'utf8');
    // Run inside Node's CommonJS wrapper: no hashbang, and strict as the ES modules it came from.
    expect(bundle.startsWith("'use strict';")).toBe(true);
    expect(bundle).toMatch(/rev-parse/);
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
