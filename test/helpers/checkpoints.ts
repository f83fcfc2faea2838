/** Helpers for the checkpoint tests: open a store in a fresh home, and read a directory's state back. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints, type CheckpointsOptions } from '../../src/checkpoints/index.js';
import { git, tempDir } from './repo.js';

/** Opens the checkpoints of `ws` with a home of its own, so that tests never share a store. */
export function openCheckpoints(ws: string, opts: CheckpointsOptions = {}): Promise<Checkpoints> {
  return Checkpoints.open(ws, { home: tempDir('agentgate-cp-home-'), ...opts });
}

/**
 * Every file, symlink and directory under `dir` (except `skip` names at the top and any `.git`):
 * files as `file <mode x|-> <content>`, links as `link -> target`, directories as `dir`.
 */
export function treeState(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      if (name === '.git' || (rel === '' && skip.includes(name))) continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, path));
      if (st.isSymbolicLink()) out[path] = `link -> ${readlinkSync(join(dir, path))}`;
      else if (st.isDirectory()) {
        out[path] = 'dir';
        walk(path);
      } else
        out[path] = `file ${st.mode & 0o100 ? 'x' : '-'} ${readFileSync(join(dir, path)).toString('base64')}`;
    }
  };
  walk('');
  return out;
}

/** Content hash, size and mtime of every file under `dir`: equal fingerprints mean nothing was written. */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, path));
      if (st.isDirectory()) walk(path);
      else
        out[path] = `${st.size}:${st.mtimeMs}:${
          st.isFile()
            ? createHash('sha1')
                .update(readFileSync(join(dir, path)))
                .digest('hex')
            : 'x'
        }`;
    }
  };
  walk('');
  return out;
}

/** Paths of a tree in the store, through the oracle git. */
export function storeTreePaths(cp: Checkpoints, tree: string): string[] {
  return git(cp.workspace, [`--git-dir=${cp.location.gitDir}`, 'ls-tree', '-r', '-z', '--name-only', tree])
    .split('\0')
    .filter(Boolean);
}

/** One agent session's hook events, recorded through `track` with the options the agent hooks pass (src/hooks/agent-hook.ts). */
export function sessionHooks(cp: Checkpoints, id: string) {
  return {
    start: () => cp.track('SessionStart', { baseline: true, session: id, event: 'SessionStart' }),
    prompt: () =>
      cp.track('UserPromptSubmit', { beforePrompt: true, session: id, event: 'UserPromptSubmit' }),
    tool: () => cp.track('PostToolUse', { session: id, event: 'PostToolUse', unlessUnchanged: true }),
  };
}
