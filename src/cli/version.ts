import { readFileSync } from 'node:fs';

/** Replaced with the package's version by the bundler (scripts/bundle.mjs). */
declare const AGENTGATE_VERSION: string | undefined;

/** The package version: built into the bundle, else read from the package.json above the compiled file. */
export function packageVersion(): string {
  if (typeof AGENTGATE_VERSION === 'string') return AGENTGATE_VERSION;
  // dist/src/cli/version.js (tsc) or src/cli/version.ts (tsx): the package root is 3 or 2 levels up.
  for (const up of ['../../../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'agentgate-snapshotter' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not there: try the next level
    }
  }
  return 'unknown';
}
