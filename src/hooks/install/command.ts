import { parse } from 'shell-quote';
import type { HookAgent } from '../../../types/hook-agents.js';

/** How an installed hook runs us: the installed bin, directly (npx costs about 450 ms per event). */
export interface HookRunner {
  /** The Node executable (absolute). */
  node: string;
  /** The installed bin, dist/bin/agentgate-snapshot.js (absolute, symlinks resolved). */
  bin: string;
  /** The home the hooks keep their checkpoints in, when `hook install --home` named one (absolute). */
  home?: string;
  /** The config file the hooks read, when `hook install --config` named one (absolute). */
  config?: string;
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
    ...(runner.config === undefined ? [] : ['--config', runner.config]),
    ...(event === undefined ? [] : ['--event', event]),
  ];
  return words.map(shellWord).join(' ');
}

/** What may run our bin in a command of ours: a Node executable (any path), or npx. */
const RUNNERS = /(?:^|[/\\])(?:node(?:\.exe)?|npx)$/;

/** The options we write after `hook <agent>` (and the global ones a user may add by hand), each with a value. */
const OUR_OPTIONS = new Set(['--home', '--config', '--event']);

/**
 * Whether a command in an agent's config is one of ours (of any install, any path): exactly one
 * simple command that runs our bin's `hook <agent>` (the bin first, or after a Node or npx), with
 * nothing after it but `--home`, `--config` or `--event` and their values. A command that does more (`... && ./notify.sh`, a pipe, a
 * redirection) is the user's and is never touched.
 */
export function isOurCommand(command: unknown, agent: HookAgent): boolean {
  if (typeof command !== 'string') return false;
  const words = shellWords(command);
  const at = words?.findIndex((w) => /(?:^|[/\\])agentgate-snapshot(?:\.js)?$/.test(w)) ?? -1;
  if (words === null || at < 0 || words[at + 1] !== 'hook' || words[at + 2] !== agent) return false;
  // Our bin comes first, or after the Node (or npx) that runs it: `timeout 30 ...` is the user's.
  if (at > 1 || (at === 1 && !RUNNERS.test(words[0] as string))) return false;
  const rest = words.slice(at + 3);
  for (let k = 0; k < rest.length; k += 1) {
    const word = rest[k] as string;
    const eq = word.indexOf('=');
    if (word.startsWith('--') && eq > 0 && OUR_OPTIONS.has(word.slice(0, eq))) continue;
    if (!OUR_OPTIONS.has(word) || rest[k + 1] === undefined) return false;
    k += 1;
  }
  return true;
}

/**
 * Whether a command is word for word one that `hookCommand` writes for `agent`, whatever node, bin,
 * home, config and event it names (in that order, quoted as it quotes): a hook file holding it
 * and nothing else is ours, while isOurCommand also takes an option the user wrote otherwise.
 */
export function isWrittenCommand(command: string, agent: HookAgent): boolean {
  const words = shellWords(command);
  if (words === null || words.length < 4 || !isOurCommand(command, agent)) return false;
  const [node, bin] = words as [string, string];
  const value = (name: string) => {
    const at = words.indexOf(name, 4);
    return at < 0 ? undefined : words[at + 1];
  };
  const home = value('--home');
  const config = value('--config');
  const runner = {
    node,
    bin,
    ...(home === undefined ? {} : { home }),
    ...(config === undefined ? {} : { config }),
  };
  return hookCommand(runner, agent, value('--event')) === command;
}

/**
 * A command's words as sh splits them (quotes taken off, by shell-quote), or null when it is not one
 * plain simple command: an operator, a redirection, a glob, a comment or an expansion. (An
 * unterminated quote runs to the end, as shell-quote reads it: sh would refuse to run that command.)
 */
function shellWords(command: string): string[] | null {
  const EXPANDED = { op: 'expansion' };
  const tokens = parse(command, () => EXPANDED);
  return tokens.every((t): t is string => typeof t === 'string') ? tokens : null;
}
