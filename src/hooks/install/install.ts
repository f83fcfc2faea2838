import { lstat, readFile, rm } from 'node:fs/promises';
import type { HookAgent } from '../../../types/hook-agents.js';
import type { HookInstallResult } from '../../../types/hook-install.js';
import { AgentConfigInvalidError } from '../../errors.js';
import { errnoOf, writeOwnFileAtomic } from '../../fs/atomic.js';
import { resolveWorkspaceDir } from '../../git/repo.js';
import { hookCommand, type HookRunner } from './command.js';
import { ourEntry } from './entries.js';
import { planJsonConfig, type ConfigPlan } from './json-config.js';
import { applyScripts, planScripts } from './scripts.js';
import { installTarget, type TargetPlace } from './targets.js';
import { planTomlConfig } from './toml-config.js';

export interface HookInstallOptions extends TargetPlace {
  /** What the hooks run (install only). */
  runner: HookRunner;
  dryRun?: boolean;
}

/**
 * `hook install AGENT`: our hook entries merged into the agent's own config file, every entry that
 * is not ours kept as it was. Idempotent (a second install changes nothing) and atomic (the file is
 * replaced whole, through fs/atomic.ts). With `dryRun` nothing is written.
 */
export function installHooks(agent: HookAgent, opts: HookInstallOptions): Promise<HookInstallResult> {
  return apply(agent, 'install', opts);
}

/** `hook uninstall AGENT`: our entries removed, every other entry kept. */
export function uninstallHooks(agent: HookAgent, opts: HookInstallOptions): Promise<HookInstallResult> {
  return apply(agent, 'uninstall', opts);
}

async function apply(
  agent: HookAgent,
  action: 'install' | 'uninstall',
  opts: HookInstallOptions,
): Promise<HookInstallResult> {
  // A project's config goes into a workspace that exists: a mistyped -C creates nothing.
  const place =
    opts.scope === 'project' ? { ...opts, workspace: await resolveWorkspaceDir(opts.workspace) } : opts;
  const target = installTarget(agent, place);
  const dryRun = opts.dryRun === true;
  const install = action === 'install';
  const commandOf = (event: string) =>
    hookCommand(opts.runner, agent, target.shape === 'copilot' ? event : undefined);
  const base = {
    agent,
    action,
    scope: opts.scope,
    file: target.file,
    dryRun,
    ...(install ? { command: commandOf(target.events[0] as string) } : {}),
    notes: install ? [...target.notes] : [],
  };
  if (target.format === 'scripts') {
    const plan = await planScripts(target, install ? commandOf('') : null);
    const written = !dryRun && plan.writes.length > 0;
    if (written) await applyScripts(plan);
    return { ...base, written, changes: plan.changes, leftAlone: plan.leftAlone };
  }
  const read = await readFile(target.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    // A directory where the file goes, a file where a directory of its path goes: nothing to merge into.
    throw new AgentConfigInvalidError(
      `cannot read ${target.file} (${errnoOf(error)}); move what stands there aside and run the command again`,
      { cause: error, details: { file: target.file } },
    );
  });
  // A byte order mark (some Windows editors write one) is no part of the text, and is kept.
  const bom = read?.startsWith(BOM) === true ? BOM : '';
  const before = read === null ? null : read.slice(bom.length);
  const entryOf = install ? (event: string) => ourEntry(target, commandOf(event)) : null;
  const plan: ConfigPlan =
    target.format === 'toml'
      ? planTomlConfig(target, before, entryOf, dryRun)
      : planJsonConfig(target, before, entryOf);
  const written = !dryRun && plan.changes.length > 0;
  if (written) await writePlan(target.file, plan, bom);
  return { ...base, written, changes: plan.changes, leftAlone: [], notes: [...plan.notes, ...base.notes] };
}

const BOM = '\uFEFF';

/**
 * The planned text written (through a symbolic link, to the file it names); a file left with
 * nothing of the user's removed, unless it is a link: the link is the user's, so the file it
 * names keeps what is left.
 */
async function writePlan(file: string, plan: ConfigPlan, bom: string): Promise<void> {
  const link = await lstat(file).then(
    (st) => st.isSymbolicLink(),
    () => false,
  );
  if (plan.text === null || (plan.removable === true && !link)) await rm(file, { force: true });
  else await writeOwnFileAtomic(file, bom + plan.text);
}
