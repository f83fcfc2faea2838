/**
 * The package as users get it: packed with `npm pack` and installed from the tarball into a project
 * of its own, with a throwaway npm cache (the runtime dependencies come from the npm registry).
 * Packing uses the dist/ the global setup built (--ignore-scripts, so that no rebuild races the
 * other test files).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PKG = z
  .object({ name: z.string(), version: z.string(), bin: z.record(z.string(), z.string()) })
  .parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));

/** The environment npm and npx run with: a cache of their own under `work`, no notices. */
export function npmEnv(work: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    NO_COLOR: '1',
  };
}

export function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  return execFileSync('npm', args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** `npm pack` of the checkout into `<work>/pack`: the tarball's path and the files it ships. */
export function packPackage(work: string, env: NodeJS.ProcessEnv): { tarball: string; files: string[] } {
  const packDir = join(work, 'pack');
  mkdirSync(packDir, { recursive: true });
  const packed = z
    .array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) }))
    .parse(JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], ROOT, env)));
  const first = packed[0];
  if (first === undefined) throw new Error('npm pack packed nothing');
  return { tarball: join(packDir, first.filename), files: first.files.map((f) => f.path) };
}

/**
 * A new project in `dir` (created) with `package.json` (merged with `manifest`), into which the
 * tarball is installed as a user would: `npm install --save-dev TARBALL`.
 */
export function installIntoNewProject(
  dir: string,
  tarball: string,
  env: NodeJS.ProcessEnv,
  manifest: Record<string, unknown> = {},
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, ...manifest }, null, 2)}\n`,
  );
  npm(['install', '--save-dev', '--no-audit', '--no-fund', tarball], dir, env);
}
