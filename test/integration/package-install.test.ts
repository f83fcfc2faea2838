/**
 * Installable like any npm tool: the packed tarball (what `npm pack` ships) installed into an empty
 * project runs the CLI through npx and imports the library. Uses the dist/ the global setup built
 * (packing with --ignore-scripts, so that no rebuild races the other test files) and the npm
 * registry for the runtime dependencies, with a throwaway npm cache.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { installIntoNewProject, npmEnv, packPackage, PKG } from '../helpers/package.js';
import { readmeNpxLines } from '../helpers/readme.js';
import { tempDir } from '../helpers/repo.js';

const work = tempDir('agentgate-package-');
const env = npmEnv(work);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it(
    'ships the library, its types, the bundled CLI and the README, and installs into an empty project where npx runs the CLI and node imports the library',
    { timeout: 300_000 },
    () => {
      const { tarball, files } = packPackage(work, env);
      for (const needed of [
        'README.md',
        'package.json',
        PKG.bin['agentgate-snapshot'] as string,
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/types/snapshot.d.ts',
      ])
        expect(files).toContain(needed);
      expect(files).toEqual(expect.arrayContaining(['dist/bin/main.js', 'dist/bin/package.json']));
      expect(files.filter((f) => /^(src|test|bench|fixtures)\//.test(f))).toEqual([]);

      const project = join(work, 'project');
      installIntoNewProject(project, tarball, env, { type: 'commonjs' });

      const version = spawnSync('npx', ['--no', '--', 'agentgate-snapshot', '--version'], {
        cwd: project,
        env,
        encoding: 'utf8',
      });
      expect(version.status, version.stderr).toBe(0);
      expect(version.stdout).toBe(`${PKG.version}\n`);
      // The README's own --version and --help lines, run as written (npx without `--` printed npm's version).
      for (const line of readmeNpxLines().filter((l) => / --(version|help)$/.test(l))) {
        const res = spawnSync('sh', ['-c', line], { cwd: project, env, encoding: 'utf8' });
        expect(res.status, `${line}: ${res.stderr}`).toBe(0);
        expect(res.stdout, line).toEqual(
          line.endsWith('--version')
            ? `${PKG.version}\n`
            : expect.stringContaining('Usage: agentgate-snapshot'),
        );
      }

      const userHome = join(work, 'home');
      mkdirSync(userHome);
      const demo = spawnSync('npx', ['--no', '--', 'agentgate-snapshot', 'demo', '--json'], {
        cwd: project,
        env: { ...env, HOME: userHome },
        encoding: 'utf8',
      });
      const summary = z
        .object({
          workspace: z.string(),
          verify: z.object({ ok: z.boolean() }),
          iterations: z.array(z.unknown()),
        })
        .parse(JSON.parse(demo.stdout));
      rmSync(dirname(summary.workspace), { recursive: true, force: true });
      expect(demo.status, demo.stderr).toBe(0);
      expect(summary.verify.ok).toBe(true);
      expect(summary.iterations).toHaveLength(3);

      const script = `import('${PKG.name}').then((m) => console.log(JSON.stringify({ snapshotter: typeof m.Snapshotter, checkpoints: typeof m.Checkpoints })))`;
      const lib = spawnSync(process.execPath, ['-e', script], { cwd: project, env, encoding: 'utf8' });
      expect(lib.status, lib.stderr).toBe(0);
      expect(JSON.parse(lib.stdout)).toEqual({ snapshotter: 'function', checkpoints: 'function' });
      expect(existsSync(join(project, 'node_modules', PKG.name, 'dist', 'src', 'index.d.ts'))).toBe(true);
    },
  );
});
