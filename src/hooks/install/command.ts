import type { HookAgent } from '../../../types/hook-agents.js';

/** How an installed hook runs us: the installed bin, directly (npx costs about 450 ms per event). */
export interface HookRunner {
  /** The Node executable (absolute). */
  node: string;
  /** The installed bin, dist/bin/agentgate-snapshot.js (absolute, symlinks resolved). */
  bin: string;
  /** The home the hooks keep their checkpoints in, when `hook install --home` named one (absolute). */
  home?: string;
}

/** A POSIX shell word: agents run a hook's command through `sh -c` (Windows: Git Bash or PowerShell). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line of one installed hook. */
export function hookCommand(runner: HookRunner, agent: HookAgent, event?: string): string {
  const words = [
    runner.node,
    runner.bin,
    'hook',
    agent,
    ...(runner.home === undefined ? [] : ['--home', runner.home]),
    ...(event === undefined ? [] : ['--event', event]),
  ];
  return words.map(shellWord).join(' ');
}

/**
 * Whether a command in an agent's config is one of ours (of any install, any path): it runs our
 * bin's `hook <agent>`. Every other entry is the user's and is never touched.
 */
export function isOurCommand(command: unknown, agent: HookAgent): boolean {
  if (typeof command !== 'string') return false;
  const bin = /agentgate-snapshot(?:\.js)?'? hook (\S+)/.exec(command);
  return bin !== null && bin[1] === agent;
}
