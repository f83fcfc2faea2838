/**
 * Cline cancels the action when a hook exits non-zero or prints no answer. The scripts `hook install
 * cline` writes answer `{"cancel": false}` even when the command they name cannot run (the Node or
 * the package was moved or removed since the install), and the `exec` scripts of earlier releases
 * are still ours: updated by install, removed by uninstall.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/hooks/install/command.js';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { agentEvent } from '../helpers/agent-hooks.js';
import { RUNNER } from '../helpers/hook-install.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

const MARKER =
  '# agentgate-snapshotter checkpoints (written by "hook install cline"; "hook uninstall cline" removes it)';

function place() {
  const ws = repoWithCommit();
  return {
    ws,
    dir: join(ws, '.clinerules/hooks'),
    opts: { scope: 'project' as const, workspace: ws, homeDir: tempDir(), home: tempDir() },
  };
}

describe('hook install cline: a command that cannot run', () => {
  it('still answers {"cancel": false} and exits 0, so that Cline carries on', async () => {
    const { ws, dir, opts } = place();
    const gone = { node: join(tempDir(), 'node-removed'), bin: join(tempDir(), 'agentgate-snapshot.js') };
    for (const bin of [gone, { ...RUNNER, bin: gone.bin }]) {
      await installHooks('cline', { ...opts, runner: bin });
      const run = spawnSync(join(dir, 'UserPromptSubmit'), {
        input: agentEvent('cline', 'UserPromptSubmit', ws),
        encoding: 'utf8',
      });
      expect([run.status, run.stdout]).toEqual([0, '{"cancel": false}\n']);
    }
  });
});

describe('hook install cline: the exec script of an earlier release', () => {
  it('is ours: install updates it, uninstall removes it', async () => {
    const { dir, opts } = place();
    mkdirSync(dir, { recursive: true });
    const old = join(dir, 'TaskStart');
    writeFileSync(old, `#!/bin/sh\n${MARKER}\nexec ${hookCommand(RUNNER, 'cline')}\n`);
    chmodSync(old, 0o755);
    const result = await installHooks('cline', { ...opts, runner: RUNNER });
    expect(result.leftAlone).toEqual([]);
    expect(result.changes.find((c) => c.event === 'TaskStart')?.change).toBe('updated');
    expect(readFileSync(old, 'utf8')).not.toContain('exec ');
    writeFileSync(old, `#!/bin/sh\n${MARKER}\nexec ${hookCommand(RUNNER, 'cline')}\n`);
    const removed = await uninstallHooks('cline', { ...opts, runner: RUNNER });
    expect(removed.leftAlone).toEqual([]);
    expect(existsSync(old)).toBe(false);
  });
});
