/** Set-ups for the `hook install` tests: the runner our commands name, and a workspace with an agent's config. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { HookAgent } from '../../types/hook-agents.js';
import { installTarget } from '../../src/hooks/install/targets.js';
import { CLI } from './cli.js';
import { repoWithCommit, tempDir } from './repo.js';

/** The node and bin the hook commands run: this checkout's built CLI. */
export const RUNNER = { node: process.execPath, bin: CLI };
/** The same from an earlier install somewhere else: its entries are still ours. */
export const OLD_RUNNER = { node: process.execPath, bin: '/old/place/dist/bin/agentgate-snapshot.js' };

/** A workspace whose config file for `agent` holds `text`. */
export function withConfig(agent: HookAgent, text: string) {
  const ws = repoWithCommit();
  const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
  const file = installTarget(agent, opts).file;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { ws, opts, file };
}
