import { realpathSync } from 'node:fs';
import { HOOK_AGENTS, type HookAgent } from '../../../types/hook-agents.js';
import type { HookInstallResult } from '../../../types/hook-install.js';
import { InvalidArgumentError } from '../../errors.js';
import { accountHome } from '../../fs/home-dir.js';
import { installHooks, uninstallHooks } from '../../hooks/install/install.js';
import { atMostOne, defineCommand, type Command } from '../spec.js';

const SCOPE_OPTIONS = {
  project: { type: 'boolean', description: "the project's config file, in the workspace (the default)" },
  user: { type: 'boolean', description: "the user's config file, in the home directory" },
  'dry-run': { type: 'boolean', description: 'print what would change and write nothing' },
} as const;

const AGENT_LIST = HOOK_AGENTS.join(', ');

function setupCommand(action: 'install' | 'uninstall'): Command {
  return defineCommand({
    name: `hook ${action}`,
    usage: `hook ${action} AGENT [--project | --user] [--dry-run]`,
    summary:
      action === 'install'
        ? "Add checkpoint hooks to an agent's own config file, merged into what is there."
        : "Remove our checkpoint hooks from an agent's config file, leaving every other entry.",
    description:
      action === 'install'
        ? `AGENT is one of ${AGENT_LIST}. Every entry that is not ours is kept; installing twice changes nothing; the file is replaced atomically. The hooks run this installed bin directly (not npx), with the --home (or $AGENTGATE_HOME) and --config given here. Prints what changed and what the agent needs before it runs them (Codex: trust them with /hooks).`
        : `AGENT is one of ${AGENT_LIST}. Every hook of ours is removed, every other entry kept: a file as install left it goes back to what install found (with the same --home), byte for byte, unless what it found already held a hook of ours (one you decorated or grouped, or an earlier install's): then ours are cut out of the file as it is, each with what you added on it (a timeout; a group that held only ours goes with its matcher). A file or directory install created goes, one that was there before never does.`,
    options: SCOPE_OPTIONS,
    positionals: { required: ['AGENT'] },
    examples: [`hook ${action} codex`, `hook ${action} cursor --user --dry-run`],
    async run(ctx, values, positionals) {
      atMostOne(values, ['project', 'user']);
      const agent = agentOf(positionals[0] as string);
      const opts = {
        scope: values.user ? ('user' as const) : ('project' as const),
        workspace: ctx.workspace,
        homeDir: accountHome(),
        runner: {
          node: process.execPath,
          bin: installedBin(),
          ...(ctx.homeGiven ? { home: ctx.settings.home } : {}),
          // --config FILE: the hooks read that file too (its hooks.timeoutMs), by its absolute path.
          ...(values.config !== undefined && ctx.settings.configFile !== null
            ? { config: ctx.settings.configFile }
            : {}),
        },
        dryRun: values['dry-run'],
        home: ctx.settings.home,
      };
      const result =
        action === 'install' ? await installHooks(agent, opts) : await uninstallHooks(agent, opts);
      return { json: result, human: () => describe(result) };
    },
  });
}

function agentOf(word: string): HookAgent {
  const agent = HOOK_AGENTS.find((a) => a === word);
  if (agent === undefined)
    throw new InvalidArgumentError(
      `unknown agent ${JSON.stringify(word.slice(0, 40))}; one of ${AGENT_LIST}`,
      {
        details: { agent: word.slice(0, 200) },
      },
    );
  return agent;
}

/** The bin this process runs as, symlinks resolved (an npm-linked bin is a link into the package). */
function installedBin(): string {
  const argv1 = process.argv[1] as string;
  try {
    return realpathSync(argv1);
  } catch {
    return argv1;
  }
}

const SIGN = { added: '+', updated: '~', removed: '-' } as const;

function describe(r: HookInstallResult): string {
  const verb = r.action === 'install' ? 'install' : 'remove';
  // Another home's uninstall already cut our entries: the file install created went now.
  if (r.changes.length === 0 && r.written)
    return `${r.agent}: removed ${r.file} (install created it; nothing was left in it)`;
  if (r.changes.length === 0 && r.leftAlone.length === 0)
    // The notes too: the file may turn the installed hooks off.
    return [
      `${r.agent}: nothing to ${verb} in ${r.file} (${r.action === 'install' ? 'already installed' : 'none of ours there'})`,
      ...r.notes.map((note) => `Next: ${note}`),
    ].join('\n');
  const head = r.dryRun
    ? `${r.agent}: would change ${r.file} (dry run: nothing written):`
    : `${r.agent}: ${r.written ? 'changed' : 'left'} ${r.file}:`;
  const lines = [head, ...r.changes.map((c) => `  ${SIGN[c.change]} ${c.event} (${c.change})`)];
  for (const file of r.leftAlone)
    lines.push(
      r.action === 'install'
        ? `  ! ${file} is not ours: left alone (chain it to our hook by hand)`
        : `  ! ${file} was ours and changed by hand: left alone (take out what you no longer want by hand)`,
    );
  if (r.command !== undefined && r.changes.some((c) => c.change !== 'removed'))
    lines.push(`  runs: ${r.command}`);
  for (const note of r.notes) lines.push(`Next: ${note}`);
  return lines.join('\n');
}

export const HOOK_INSTALL_COMMANDS: Command[] = [setupCommand('install'), setupCommand('uninstall')];
