/**
 * The bin (dist/bin/agentgate-snapshot.js): runs the CLI bundle, dist/bin/cli.cjs (src/cli/main.ts
 * as one CommonJS file), the way Node runs a CommonJS module, but with V8's code cache of the
 * command it is asked to run (code-cache.ts). When there was none for it, or only one from a run
 * that failed, the cache is saved after the run, whatever its outcome. Built by
 * scripts/bundle.mjs; kept to Node's built-ins and the cache, so that it costs next to nothing
 * before the bundle runs.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { cacheDir, cacheFile, guessCommand, readCodeCache, writeCodeCache } from './code-cache.js';

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
const command = guessCommand(process.argv.slice(2));
const path = dir === null ? null : cacheFile(dir, AGENTGATE_BUNDLE_ID, command);
const cached = path === null ? null : readCodeCache(path);
const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), {
  filename: bundle,
  ...(cached === null ? {} : { cachedData: cached.data }),
});
const kept = cached !== null && script.cachedDataRejected !== true ? cached : null;
const module: CliModule = { exports: {} };
if (path !== null)
  process.once('beforeExit', () => {
    // The guess was wrong (options first, an unknown command), or no command ran (--help): no cache.
    if ((module.exports.ranCommand ?? null) !== command) return;
    const complete = Number(process.exitCode ?? 0) === 0;
    if (kept !== null && (kept.complete || !complete)) return;
    void writeCodeCache(path, { complete, data: script.createCachedData() });
  });
(script.runInThisContext() as ModuleWrapper).call(
  module.exports,
  module.exports,
  createRequire(bundle),
  module,
  bundle,
  here,
);
