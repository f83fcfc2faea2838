#!/usr/bin/env node
/**
 * The bin (dist/bin/agentgate-snapshot.js, bundled by scripts/bundle.mjs): turns on Node's own
 * compile cache (Node 22.1 and later), then loads the CLI, so that the CLI's code is compiled from
 * that cache. Node keeps the cache in its default place (NODE_COMPILE_CACHE moves it,
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off) and checks it against the code it was made from. A cache
 * that cannot be used costs only time: nothing here may fail the CLI. The caller's environment goes
 * to the CLI, and so to the commands it starts, untouched.
 */
import module from 'node:module';

try {
  module.enableCompileCache?.();
} catch {
  // An optimisation only.
}
await import('./main.js');
