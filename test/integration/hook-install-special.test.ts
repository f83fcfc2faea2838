/**
 * `hook install` / `hook uninstall` where the agent's config file is no regular file: a FIFO
 * planted in a cloned workspace, a link to a device. They are refused at once, never read (a read
 * waits for a writer for ever, or never ends).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { installTarget } from '../../src/hooks/install/targets.js';
import { CLI } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

/** The CLI, ended after 20 s if it has not finished by then (status null). */
function cliWithin(ws: string, home: string, args: string[]) {
  const res = spawnSync(process.execPath, [CLI, '-C', ws, '--home', home, '--json', ...args], {
    cwd: ws,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const code = res.status === 1 ? (JSON.parse(res.stdout) as { error: { code: string } }).error.code : null;
  return { status: res.status, code };
}

function configFileOf(agent: HookAgent, ws: string): string {
  const file = installTarget(agent, { scope: 'project', workspace: ws, homeDir: tempDir() }).file;
  mkdirSync(dirname(file), { recursive: true });
  return file;
}

describe('hook install: a config file that is no regular file is AGENT_CONFIG_INVALID, not a hang', () => {
  const agents: HookAgent[] = ['claude-code', 'codex', 'cursor', 'gemini', 'copilot', 'windsurf'];

  it.each(agents)('%s: a FIFO (install, --dry-run and uninstall), left in place', (agent) => {
    const ws = repoWithCommit();
    const home = tempDir('hook-special-home-');
    const file = configFileOf(agent, ws);
    execFileSync('mkfifo', [file]);
    for (const args of [
      ['install', agent],
      ['install', agent, '--dry-run'],
      ['uninstall', agent],
    ])
      expect(cliWithin(ws, home, ['hook', ...args])).toEqual({ status: 1, code: 'AGENT_CONFIG_INVALID' });
    expect(lstatSync(file).isFIFO()).toBe(true);
  });

  it('a link to /dev/zero (endless) is refused the same way, the link kept', () => {
    const ws = repoWithCommit();
    const file = configFileOf('claude-code', ws);
    symlinkSync('/dev/zero', file);
    expect(cliWithin(ws, tempDir('hook-special-home-'), ['hook', 'install', 'claude-code'])).toEqual({
      status: 1,
      code: 'AGENT_CONFIG_INVALID',
    });
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it.each(agents)(
    '%s: a link that names nothing is refused, nothing made where it points (install, --dry-run); uninstall has nothing to do',
    (agent) => {
      const ws = repoWithCommit();
      const home = tempDir('hook-special-home-');
      const file = configFileOf(agent, ws);
      const elsewhere = join(tempDir('hook-special-elsewhere-'), 'made', 'by', 'install.json');
      symlinkSync(elsewhere, file);
      for (const args of [
        ['install', agent],
        ['install', agent, '--dry-run'],
      ])
        expect(cliWithin(ws, home, ['hook', ...args])).toEqual({ status: 1, code: 'AGENT_CONFIG_INVALID' });
      expect(cliWithin(ws, home, ['hook', 'uninstall', agent])).toEqual({ status: 0, code: null });
      expect(existsSync(dirname(dirname(elsewhere)))).toBe(false);
      expect(lstatSync(file).isSymbolicLink()).toBe(true);
    },
  );
});

describe('a file where a directory of the config path goes (a project`s .clinerules rules file)', () => {
  const agents: HookAgent[] = ['cline', 'claude-code', 'codex', 'cursor'];

  it.each(agents)(
    '%s: install refused (AGENT_CONFIG_INVALID); uninstall has nothing to do; the file kept',
    (agent) => {
      const ws = repoWithCommit();
      const home = tempDir('hook-special-home-');
      const target = installTarget(agent, { scope: 'project', workspace: ws, homeDir: tempDir() }).file;
      // .clinerules/hooks, .claude/settings.json...: the agent's directory in the project is a file.
      const blocking = dirname(target);
      writeFileSync(blocking, 'Always write tests.\n');
      for (const args of [
        ['install', agent],
        ['install', agent, '--dry-run'],
      ])
        expect(cliWithin(ws, home, ['hook', ...args])).toEqual({ status: 1, code: 'AGENT_CONFIG_INVALID' });
      expect(cliWithin(ws, home, ['hook', 'uninstall', agent])).toEqual({ status: 0, code: null });
      expect(cliWithin(ws, home, ['hook', 'uninstall', agent, '--dry-run'])).toEqual({
        status: 0,
        code: null,
      });
      expect(readFileSync(blocking, 'utf8')).toBe('Always write tests.\n');
    },
  );
});

describe('a config file with other hard links (a dotfiles folder)', () => {
  it('install replaces it whole and says its other link keeps the old text (dry run: would)', () => {
    const ws = repoWithCommit();
    const home = tempDir('hook-special-home-');
    const file = configFileOf('claude-code', ws);
    const other = join(tempDir('hook-special-dotfiles-'), 'settings.json');
    writeFileSync(other, '{"model": "x"}\n');
    linkSync(other, file);
    const run = (args: string[]) => {
      const res = spawnSync(process.execPath, [CLI, '-C', ws, '--home', home, '--json', 'hook', ...args], {
        cwd: ws,
        encoding: 'utf8',
      });
      return { status: res.status, notes: (JSON.parse(res.stdout) as { notes: string[] }).notes };
    };
    const dry = run(['install', 'claude-code', '--dry-run']);
    expect([dry.status, dry.notes.filter((n) => n.includes('other hard link keeps')).length]).toEqual([0, 1]);
    const done = run(['install', 'claude-code']);
    expect([done.status, done.notes.filter((n) => n.includes('other hard link keeps')).length]).toEqual([
      0, 1,
    ]);
    expect(readFileSync(other, 'utf8')).toBe('{"model": "x"}\n');
    expect(readFileSync(file, 'utf8')).toContain('hook claude-code');
    // Its own file now: nothing more to say.
    expect(run(['uninstall', 'claude-code']).notes).toEqual([]);
  });
});
