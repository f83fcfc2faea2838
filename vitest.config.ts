import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples import the package by name, as a user's copy would; here that is the source.
  resolve: { alias: { 'agentgate-snapshotter': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn many git processes; two cores are the norm in CI.
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one on CI's two, which left a core idle
    // for the whole run. The test files wait on git and CLI processes much of the time, so one
    // worker per core (two at least) keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
