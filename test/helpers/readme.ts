/** The README's command lines, as a user would copy them. */
import { readFileSync } from 'node:fs';

const README = new URL('../../README.md', import.meta.url);

/**
 * Every npx invocation of our CLI in the README (code blocks, inline code, YAML `run:` steps), up
 * to `&&`, a backtick or a comment.
 */
export function readmeNpxCommands(): string[] {
  const text = readFileSync(README, 'utf8');
  return [...text.matchAll(/\bnpx\b[^`\n#&]*/g)]
    .map((m) => m[0].trim())
    .filter((c) => c.includes('agentgate-snapshot'));
}

/** The README's whole lines that are an npx command and nothing else (in code blocks). */
export function readmeNpxLines(): string[] {
  return readFileSync(README, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('npx '));
}
