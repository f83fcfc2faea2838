// Runs in every test worker before each test file: no test may touch the real home or inherit a
// caller's git environment, and everything a file puts in the temporary directory goes when it ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';

for (const key of Object.keys(process.env)) if (key.startsWith('GIT_')) delete process.env[key];

// The run's temporary root comes from the global setup; a file run on its own without it
// (an editor's runner) still gets a directory of its own under the system one.
const root = process.env.AGENTGATE_TEST_TMP ?? process.env.TMPDIR ?? '/tmp';
const fileTmp = mkdtempSync(join(root, 'file-'));
process.env.TMPDIR = fileTmp; // os.tmpdir() and every child process now use it
const sandbox = mkdtempSync(join(fileTmp, 'agentgate-test-home-'));
process.env.HOME = sandbox;
process.env.AGENTGATE_HOME = join(sandbox, '.agentgate');
delete process.env.AGENTGATE_ARTIFACTS_DIR;
// The agents' own home variables: a --user install must never reach a real agent's config.
for (const key of ['CLAUDE_CONFIG_DIR', 'GEMINI_CLI_HOME', 'QWEN_HOME', 'CODEX_HOME', 'COPILOT_HOME'])
  delete process.env[key];
delete process.env.GITHUB_ACTIONS; // CI detection is tested explicitly; the suite must not write to a real runner's files.

afterAll(() => {
  rmSync(fileTmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});
