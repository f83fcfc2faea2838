import { firstCodePoints } from '../text.js';

/**
 * The after commit's message (CONTRACT.md), with trailers that let the store be rebuilt from the
 * repository alone: `git log --format=%(trailers)` gives back run, iteration and before SHA.
 */
export const WIP_SUBJECT = '[agentgate] WIP before run';
export const TASK_LIMIT = 100;

export interface IterationMessage {
  runId: string;
  iteration: number;
  taskPrompt: string;
  gatePlanSource: string;
  beforeSha: string;
}

export function iterationMessage(m: IterationMessage): string {
  return [
    `[agentgate] Run ${m.runId} iteration ${m.iteration}`,
    '',
    taskLine(m.taskPrompt),
    gateLine(m.gatePlanSource),
    '',
    `Agentgate-Run: ${m.runId}`,
    `Agentgate-Iteration: ${m.iteration}`,
    `Agentgate-Before: ${m.beforeSha}`,
    '',
  ].join('\n');
}

/** The message's `Task:` line for a task prompt: its first 100 characters on one line. */
export function taskLine(taskPrompt: string): string {
  return `Task: ${firstCodePoints(oneLine(taskPrompt), TASK_LIMIT)}`;
}

/** The message's `Gate:` line for a gate plan source. */
export function gateLine(gatePlanSource: string): string {
  return `Gate: ${oneLine(gatePlanSource)}`;
}

export function wipMessage(runId: string): string {
  return `${WIP_SUBJECT}\n\nAgentgate-Run: ${runId}\n`;
}

/**
 * The commit of what was staged, made under the WIP commit when a path's staged content is neither
 * HEAD's nor the work tree's (staging the work tree would drop it).
 */
export function wipStagedMessage(runId: string): string {
  return `${WIP_SUBJECT}: staged\n\nAgentgate-Run: ${runId}\n`;
}

/** The value of a `Key: value` line of a commit message, or null. */
export function trailer(message: string, key: string): string | null {
  const line = message.split('\n').find((l) => l.startsWith(`${key}: `));
  return line === undefined ? null : line.slice(key.length + 2).trim();
}

/**
 * A task prompt may hold newlines and control characters; the message keeps one printable line.
 * C1 controls go too (U+009B is a terminal's CSI, as ESC [ is), and so do the bidirectional
 * overrides and isolates that can make `git log` show text other than what is stored.
 */
function oneLine(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are what we remove
      .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
      .trim()
  );
}
