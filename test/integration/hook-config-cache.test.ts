/**
 * The config cache through the built CLI: an agent hook that recorded a checkpoint keeps what
 * config.yaml parsed to (`<home>/cache/config.json`); a command that only reads, or a hook that
 * failed, writes nothing; a changed config.yaml is read again, an invalid one refused as before.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentEvent } from '../helpers/agent-hooks.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

function hook(ws: string, home: string) {
  return runCli(['hook', 'codex'], {
    input: agentEvent('codex', 'UserPromptSubmit', ws),
    cwd: ws,
    env: { AGENTGATE_HOME: home },
  });
}

describe('config cache (CLI)', () => {
  it('kept by a hook that recorded a checkpoint, not by a read-only command; a changed config.yaml is read again', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-config-cache-');
    const cache = join(home, 'cache', 'config.json');
    const config = join(home, 'config.yaml');
    writeFileSync(config, 'checkpoints:\n  keep: 50\n');
    expect(runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } }).status).toBe(
      0,
    );
    expect(existsSync(cache)).toBe(false);
    expect([hook(ws, home).status, hook(ws, home).stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toEqual({
      file: config,
      text: 'checkpoints:\n  keep: 50\n',
      config: { checkpoints: { keep: 50 } },
    });
    writeFileSync(config, 'checkpoints:\n  keep: 0\n');
    const refused = hook(ws, home);
    expect(refused.status).toBe(0);
    expect(refused.stderr).toMatch(/failed: hook did not run: CONFIG_INVALID: .*checkpoints\.keep/);
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toMatchObject({ text: 'checkpoints:\n  keep: 50\n' });
  });

  it('a hook whose config is invalid writes no cache', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-config-cache-');
    writeFileSync(join(home, 'config.yaml'), 'hooks: [\n');
    const res = hook(ws, home);
    expect(res.status).toBe(0);
    expect(res.stderr).toMatch(/CONFIG_INVALID/);
    expect(existsSync(join(home, 'cache'))).toBe(false);
  });
});
