/** Which commands in an agent's config are ours: exactly one of ours, never a user's command that runs ours and more. */
import { describe, expect, it } from 'vitest';
import { hookCommand, isOurCommand } from '../../src/hooks/install/command.js';

describe('isOurCommand', () => {
  const runner = { node: '/usr/bin/node', bin: "/opt/it's/dist/bin/agentgate-snapshot.js", home: '/my home' };

  it('is every command install writes (quoted words, --home, --event) and ours written by hand', () => {
    expect(isOurCommand(hookCommand(runner, 'claude-code'), 'claude-code')).toBe(true);
    expect(isOurCommand(hookCommand(runner, 'copilot', 'postToolUse'), 'copilot')).toBe(true);
    expect(isOurCommand('npx agentgate-snapshot hook claude-code --config=/c.yaml', 'claude-code')).toBe(
      true,
    );
    expect(isOurCommand('"/a b/node" "/x/agentgate-snapshot.js" hook gemini', 'gemini')).toBe(true);
  });

  it('is no command that does more than run ours: chained, piped, redirected, other arguments', () => {
    for (const command of [
      'npx agentgate-snapshot hook claude-code && ./scripts/notify-slack.sh',
      'npx agentgate-snapshot hook claude-code; echo done',
      'npx agentgate-snapshot hook claude-code | tee log',
      'npx agentgate-snapshot hook claude-code > /dev/null',
      'npx agentgate-snapshot hook claude-code $(cat extra)',
      'npx agentgate-snapshot hook claude-code --home',
      'npx agentgate-snapshot hook claude-code --json',
      'npx agentgate-snapshot hook claude-code # note',
      'npx agentgate-snapshot hook claude-code *.log',
      'npx agentgate-snapshot hook "$AGENT"',
    ])
      expect(isOurCommand(command, 'claude-code'), command).toBe(false);
  });
});
