/**
 * Start-up (issue 29 item 1): which of Node's own modules the built CLI loads. `--version` must not
 * build node:fs's ES facade (it reads fs.promises and the stream getters, loading fs/promises,
 * readline and the rest), and commands that only read the store must not load node:crypto (about
 * forty modules; it is loaded on the first random name a write needs, src/fs/random.ts), and
 * `--version` writes its few bytes without making process.stdout and its streams.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';
import { randomHex } from '../../src/fs/random.js';

/** Node's own modules the CLI loaded for `args` (process.moduleLoadList at exit), and its stdout. */
function loaded(args: string[]): { modules: string[]; stdout: string } {
  const dir = tempDir('agentgate-startup-');
  const list = join(dir, 'modules.txt');
  const preload = join(dir, 'record.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
  );
  const run = spawnSync(process.execPath, ['--require', preload, CLI, ...args], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return { modules: readFileSync(list, 'utf8').split('\n'), stdout: run.stdout };
}

describe('CLI start-up: Node modules loaded', () => {
  it('--version loads neither fs/promises nor readline (no node:fs facade)', () => {
    const { modules, stdout } = loaded(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(modules).not.toContain('NativeModule internal/fs/promises');
    expect(modules).not.toContain('NativeModule internal/readline/interface');
    expect(modules).not.toContain('NativeModule crypto');
    // Nor process.stdout and node:stream: a version is a few bytes written straight to fd 1.
    expect(modules).not.toContain('NativeModule stream');
  });

  it('runs --json on an empty home does not load node:crypto', () => {
    const { modules, stdout } = loaded(['runs', '--json', '--home', tempDir('agentgate-startup-home-')]);
    expect(JSON.parse(stdout)).toEqual([]);
    expect(modules).not.toContain('NativeModule crypto');
  });
});

describe('randomHex', () => {
  it('gives two lower-case hex characters a byte, different each call', () => {
    const a = randomHex(6);
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(6)).not.toBe(a);
  });
});
