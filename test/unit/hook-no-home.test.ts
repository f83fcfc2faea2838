/**
 * The agent hooks' library calls where no home can be found (HOME empty and the account named in
 * no user database: a container's arbitrary uid) and none is given: they never throw, as
 * docs/runs.md says; the outcome says why nothing was recorded.
 */
import { describe, expect, it, vi } from 'vitest';
import { ConfigInvalidError } from '../../src/errors.js';
import { runAgentHook, runClaudeCodeHook, runEventHook } from '../../src/hooks/index.js';
import { repoWithCommit } from '../helpers/repo.js';

vi.mock('../../src/fs/home-dir.js', () => ({
  accountHome: () => {
    throw new ConfigInvalidError('the home directory is unknown (HOME is empty and the account names none)');
  },
}));

describe('agent hooks with no home to be found', () => {
  it('runAgentHook, runEventHook and runClaudeCodeHook return a failed outcome, CONFIG_INVALID, and do not throw', async () => {
    const saved = process.env.AGENTGATE_HOME;
    delete process.env.AGENTGATE_HOME;
    try {
      const ws = repoWithCommit();
      const event = { session_id: 's', cwd: ws, hook_event_name: 'Stop' };
      const cline = await runEventHook('cline', '{}');
      const outcomes = [
        await runAgentHook({ agent: 'x', workspace: ws, session: 's', event: 'Stop', kind: 'latest' }),
        await runEventHook('claude-code', JSON.stringify(event)),
        cline,
        await runClaudeCodeHook(JSON.stringify(event)),
      ];
      for (const outcome of outcomes)
        expect(outcome).toMatchObject({ status: 'failed', code: 'CONFIG_INVALID' });
      expect(cline.answer).toBe('{"cancel": false}');
    } finally {
      process.env.AGENTGATE_HOME = saved;
    }
  });
});
