// Runs in every test worker before any test file: no test may touch the real home or inherit a
// caller's git environment.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

for (const key of Object.keys(process.env)) if (key.startsWith('GIT_')) delete process.env[key];
const sandbox = mkdtempSync(join(tmpdir(), 'agentgate-test-home-'));
process.env.HOME = sandbox;
process.env.AGENTGATE_HOME = join(sandbox, '.agentgate');
delete process.env.AGENTGATE_ARTIFACTS_DIR;
delete process.env.GITHUB_ACTIONS; // CI detection is tested explicitly; the suite must not write to a real runner's files.
