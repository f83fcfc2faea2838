/**
 * The bin (dist/bin/agentgate-snapshot.js): runs the CLI bundle, dist/bin/cli.cjs (src/cli/main.ts
 * as one CommonJS file), the way Node runs a CommonJS module, but with V8's code cache
 * (code-cache.ts). After a run of a command the cache does not hold yet, whatever its outcome, the
 * cache is saved again with the code that run compiled added. Built by scripts/bundle.mjs; kept to Node's built-ins and
 * the cache, so that it costs next to nothing before the bundle runs.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { cacheDir, cacheFile, readCodeCache, writeCodeCache } from './code-cache.js';

/** The bundle's content hash, set by scripts/bundle.mjs: a new build never reads an old build's cache. */
declare const AGENTGATE_BUNDLE_ID: string;

/** What main.ts exports: the command it ran, once it knows it. */
interface CliModule {
  exports: { ranCommand?: unknown };
}

type ModuleWrapper = (
  exports: object,
  require: NodeJS.Require,
  module: CliModule,
  filename: string,
  dirname: string,
) => void;

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, 'cli.cjs');
const dir = cacheDir(here);
const path = dir === null ? null : cacheFile(dir, AGENTGATE_BUNDLE_ID);
const cached = path === null ? null : readCodeCache(path);
const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), {
  filename: bundle,
  ...(cached === null ? {} : { cachedData: cached.data }),
});
const keys = cached === null || script.cachedDataRejected === true ? [] : cached.keys;
const module: CliModule = { exports: {} };
if (dir !== null && path !== null)
  process.once('beforeExit', () => {
    const key = module.exports.ranCommand;
    if (typeof key !== 'string' || keys.includes(key)) return;
    void writeCodeCache(path, dir, { keys: [...keys, key], data: script.createCachedData() });
  });
(script.runInThisContext() as ModuleWrapper).call(
  module.exports,
  module.exports,
  createRequire(bundle),
  module,
  bundle,
  here,
);
