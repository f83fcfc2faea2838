import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took longest as measured (docs/performance.md), longest first; they start before
 * the others. On a fresh clone vitest knows no durations and starts the largest sources first, so a
 * long file with a short source could start last and keep one worker busy while the other has
 * nothing left.
 */
const LONGEST = [
  'test/reliability/crash-checkpoints.test.ts',
  'test/reliability/crash-snapshots.test.ts',
  'test/reliability/hostile-config.test.ts',
  'test/reliability/crash-iterate.test.ts',
  'test/reliability/concurrency.test.ts',
  'test/reliability/bad-input.test.ts',
  'test/reliability/crash-sharing.test.ts',
  'test/reliability/hook-large.test.ts',
  'test/integration/sharing-cli.test.ts',
  'test/integration/cli-run-snapshots.test.ts',
  'test/integration/sharing-anchors.test.ts',
  'test/integration/gates-library.test.ts',
  'test/integration/sharing-gates.test.ts',
  'test/integration/gates-cli.test.ts',
  'test/integration/sharing-roundtrip.test.ts',
  'test/reliability/hostile-repos.test.ts',
  'test/browser/report-scale.test.ts',
  'test/reliability/write-failures-cli.test.ts',
  'test/integration/package-install.test.ts',
  'test/integration/sharing-forged-objects.test.ts',
  'test/unit/gates-junit-memory.test.ts',
  'test/integration/cli-report.test.ts',
  'test/integration/action.test.ts',
  'test/integration/cli-provenance.test.ts',
  'test/integration/hook-agents.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const rank = (file: TestSpecification): number => {
      const at = LONGEST.findIndex((name) => file.moduleId.startsWith(root + name));
      return at === -1 ? LONGEST.length : at;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ file }) => file);
  }
}

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
    // for the whole run. The test files wait on git and CLI processes much of the time: with one
    // worker per core the two cores were 84 % busy; one worker more keeps them busier (the whole
    // suite 547 s with two workers, 496 s with three: docs/performance.md).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
