import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const AGENT_FIXTURES = join(import.meta.dirname, '../../fixtures/hooks');

/** A fixture event of `agent` with `$CWD` set to the workspace (JSON-escaped), as the agent would send it. */
export function agentEvent(agent: string, name: string, cwd: string): string {
  const dir = agent === 'claude-code' ? join(AGENT_FIXTURES, '../claude-code') : join(AGENT_FIXTURES, agent);
  const raw = readFileSync(join(dir, `${name}.json`), 'utf8');
  return raw.replaceAll('$CWD', JSON.stringify(cwd).slice(1, -1));
}

/** Copilot's camelCase fixtures are named after their event (`postToolUse-bash` is a postToolUse). */
export function eventOfFixture(name: string): string {
  return name.split('-')[0] as string;
}
