#!/usr/bin/env node
/**
 * The bin (dist/bin/agentgate-snapshot.js, bundled by scripts/bundle.mjs): turns on Node's own
 * compile cache (Node 22.1 and later), then loads the CLI, so that the CLI's code is compiled from
 * that cache. A cache that cannot be used costs only time: nothing here may fail the CLI. The
 * caller's environment goes to the CLI, and so to the commands it starts, untouched.
 *
 * Node checks a cache entry against the code it was made from, but its checksum is no
 * authentication, and its default directory (`node-compile-cache` in the temporary directory) may
 * be shared with other users: whoever can write there can plant code this process runs. So the
 * cache lives in a directory of this user's own, `agentgate-compile-cache-<uid>` in the temporary
 * directory, used only while it is this user's and nobody else may write to it.
 * NODE_COMPILE_CACHE (the caller's own choice of directory) and NODE_DISABLE_COMPILE_CACHE=1 keep
 * their meaning: Node applies both before this file runs.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** This user's cache directory, made if missing; null when it is not safe to use. */
function privateCacheDir(): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const dir = join(tmpdir(), `agentgate-compile-cache-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0 ? dir : null;
}

try {
  if (process.env.NODE_COMPILE_CACHE === undefined && process.env.NODE_DISABLE_COMPILE_CACHE === undefined) {
    const dir = privateCacheDir();
    if (dir !== null) enableCompileCache(dir);
  }
} catch {
  // An optimisation only.
}
// Bundled, this is require('./main.js') (scripts/bundle.mjs).
void import('./main.js');
