import { lstat, readFile, realpath, rm, stat } from 'node:fs/promises';
import { dirname, parse, resolve } from 'node:path';
import type { HookAgent } from '../../../types/hook-agents.js';
import type { HookInstallResult } from '../../../types/hook-install.js';
import { HookAgentArg, HookInstallOptionsArg, HookUninstallOptionsArg } from '../../../types/library.js';
import { checkArgument } from '../../arguments.js';
import { AgentConfigInvalidError, InvalidArgumentError } from '../../errors.js';
import { errnoOf, writeOwnFileAtomic } from '../../fs/atomic.js';
import { readRegularFile } from '../../fs/regular-file.js';
import { probeWorkspace } from '../../git/checkpoint-repo.js';
import { workTreeOfGitDir } from '../../git/git-dir-work-tree.js';
import { resolveWorkspaceDir } from '../../git/repo.js';
import { resolveHome } from '../../store/paths.js';
import { hookCommand, type HookRunner } from './command.js';
import { configInvalid, ourEntry } from './entries.js';
import {
  dropRecord,
  isCreatedFile,
  missingDirs,
  nextRecord,
  readRecord,
  recordThen,
  removeEmptyDirs,
  sha256,
  stamped,
  writeRecord,
} from './install-record.js';
import { planJsonConfig, type ConfigPlan } from './json-config.js';
import { applyScripts, planScripts } from './scripts.js';
import { installTarget, type InstallTarget, type TargetPlace } from './targets.js';
import { planTomlConfig } from './toml-config.js';
import { applySplices, undoSplices } from './undo.js';

export interface HookInstallOptions extends TargetPlace {
  /** What the hooks run (install only). */
  runner: HookRunner;
  dryRun?: boolean;
  /** The agentgate home, where install keeps what it created and changed (install-record.ts); default resolveHome(). */
  home?: string;
}

/**
 * `hook install AGENT`: our hook entries merged into the agent's own config file, every entry that
 * is not ours kept as it was. Idempotent (a second install changes nothing) and atomic (the file is
 * replaced whole, through fs/atomic.ts). With `dryRun` nothing is written.
 */
export async function installHooks(agent: HookAgent, opts: HookInstallOptions): Promise<HookInstallResult> {
  checkArgument(HookAgentArg, agent, 'agent');
  checkArgument(HookInstallOptionsArg, opts, 'opts');
  return apply(agent, 'install', opts);
}

/**
 * `hook uninstall AGENT`: our entries removed, every other entry kept. A file still exactly as
 * install left it is given back as install found it, unless that held a hook of ours (or removed,
 * with the directories install created, when there was none); otherwise our entries are cut out,
 * and a file is removed only when install created it and nothing of the user's is left in it.
 */
export async function uninstallHooks(agent: HookAgent, opts: HookInstallOptions): Promise<HookInstallResult> {
  checkArgument(HookAgentArg, agent, 'agent');
  checkArgument(HookUninstallOptionsArg, opts, 'opts');
  return apply(agent, 'uninstall', opts);
}

/**
 * The project whose config --project writes: the top level of the repository holding the
 * workspace (also from inside its git dir: a linked worktree's or a submodule's gives that work
 * tree; outside git, the workspace itself), which exists (a
 * mistyped -C creates nothing). Never `/`, the home directory, where the agent's project file is
 * its user-wide one, or a git dir without a work tree (no agent reads a project file there).
 */
async function projectDir(opts: HookInstallOptions): Promise<string> {
  const dir = await resolveWorkspaceDir(opts.workspace);
  // A git dir first: git takes a submodule's for a directory outside its work tree (core.worktree).
  const top = await workTreeOfGitDir(dir);
  if (top === null)
    throw new InvalidArgumentError(
      `refusing a project install in ${dir}: it lies in a git dir without a work tree of its own (a bare repository, or a worktree or submodule whose work tree is gone); run it in the project's work tree (-C DIR), or use --user for the user-wide file`,
      { details: { workspace: dir } },
    );
  const root = top ?? (await probeWorkspace(dir)).root;
  const home = await realpath(opts.homeDir).catch(() => resolve(opts.homeDir));
  if (root === home || parse(root).root === root)
    throw new InvalidArgumentError(
      `refusing a project install in ${root}: it is ${root === home ? 'the home directory, where the project file is the user-wide one' : 'the file system root'}; run it in a project (-C DIR), or use --user for the user-wide file`,
      { details: { workspace: root } },
    );
  return root;
}

async function apply(
  agent: HookAgent,
  action: 'install' | 'uninstall',
  opts: HookInstallOptions,
): Promise<HookInstallResult> {
  const place = opts.scope === 'project' ? { ...opts, workspace: await projectDir(opts) } : opts;
  const found = installTarget(agent, place);
  const target =
    action === 'install' ? { ...found, notes: [...found.notes, ...runnerNotes(opts.runner)] } : found;
  const dryRun = opts.dryRun === true;
  const install = action === 'install';
  const home = opts.home ?? resolveHome();
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
    if (written && install) await recordDirsThen(home, target.file, () => applyScripts(plan));
    else if (written) await applyScripts(plan);
    if (!dryRun && !install) await removeCreatedDirs(home, target.file);
    return { ...base, written, changes: plan.changes, leftAlone: plan.leftAlone };
  }
  const read = await readConfig(target.file, install);
  if (install && read === null) await refuseDanglingLink(target);
  const entryOf = install ? (event: string) => ourEntry(target, commandOf(event)) : null;
  const plan = planOf(target, read, entryOf, dryRun);
  // Asked before the write, which leaves the file one link.
  const links = read !== null && plan.changes.length > 0 ? await hardLinkNotes(target.file, dryRun) : [];
  let written = !dryRun && plan.changes.length > 0;
  if (written && install) await recordAndWrite(home, target, read, plan.text as string);
  if (!dryRun && !install) written = await giveBack(home, target, read, plan);
  return { ...base, written, changes: plan.changes, leftAlone: [], notes: [...plan.notes, ...links] };
}

/**
 * What the user must know when the config file (the one its symbolic links name) has other hard
 * links (a dotfiles folder): it is replaced whole, atomically, and so leaves them. Written in place
 * instead, a crash half-way would leave a truncated config under every name; so the names part,
 * and are said to.
 */
async function hardLinkNotes(file: string, dryRun: boolean): Promise<string[]> {
  const links = await stat(file).then(
    (st) => st.nlink,
    () => 1,
  );
  if (links < 2) return [];
  const others = links === 2 ? 'its other hard link keeps' : `its ${links - 1} other hard links keep`;
  return [
    `${file} ${dryRun ? 'would be' : 'was'} replaced whole (atomically), so ${others} the text it had: make the other names symbolic links to it to keep them in step`,
  ];
}

/**
 * What the user must know about the bin the hooks run: one in npx's cache (`npx agentgate-snapshotter`
 * without the package installed) goes when npm clears or reuses that cache, and every hook with it.
 */
function runnerNotes(runner: HookRunner): string[] {
  return /[\\/]_npx[\\/]/.test(runner.bin)
    ? [
        `The hooks run ${runner.bin}, in npx's cache, which npm may clear or replace at any time (then every hook fails): install the package (npm install --save-dev agentgate-snapshotter, or npm install --global agentgate-snapshotter) and run "hook install" again from it.`,
      ]
    : [];
}

/**
 * The config file's text (null: none); one that is not UTF-8 is refused, since writing it back would
 * replace its bytes. A file where one of its directories goes (ENOTDIR) holds no file to uninstall
 * from; install refuses it.
 */
async function readConfig(file: string, install: boolean): Promise<string | null> {
  // Never a plain read first: a FIFO planted where the file goes would wait for a writer for ever,
  // a link to /dev/zero would never end.
  const regular = await readRegularFile(file);
  if (regular !== null && 'special' in regular)
    throw new AgentConfigInvalidError(
      `cannot read ${file}: a ${regular.special} stands there, not a file; move it aside and run the command again`,
      { details: { file } },
    );
  // Nothing read (missing, a directory, not openable): readFile says why.
  const bytes =
    regular?.bytes ??
    (await readFile(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || (error.code === 'ENOTDIR' && !install)) return null;
      // A directory where the file goes, a file where a directory of its path goes: nothing to merge into.
      throw new AgentConfigInvalidError(
        `cannot read ${file} (${errnoOf(error)}); move what stands there aside and run the command again`,
        { cause: error, details: { file } },
      );
    }));
  if (bytes === null) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new AgentConfigInvalidError(
      `${file} is not UTF-8 text; save it as UTF-8 (the agent reads it so) and run the command again`,
      { cause: error, details: { file } },
    );
  }
}

/**
 * A symbolic link that names nothing where the config file goes: install would make the file it
 * names wherever that is (outside the project too, with its directories), which uninstall could
 * not give back as "no file". Refused, the link left as it is.
 */
async function refuseDanglingLink(target: InstallTarget): Promise<void> {
  const link = await lstat(target.file).then(
    (st) => st.isSymbolicLink(),
    () => false,
  );
  if (link)
    throw configInvalid(
      target,
      'it is a symbolic link to a file that does not exist (create that file, or remove the link)',
    );
}

const BOM = '\uFEFF';

/** The plan for a file's text (null: none); its text and notes as written: the byte order mark kept, the target's notes after the plan's. */
function planOf(
  target: InstallTarget,
  read: string | null,
  entryOf: ((event: string) => Record<string, unknown>) | null,
  dryRun = false,
): ConfigPlan {
  // A byte order mark (some Windows editors write one) is no part of the text, and is kept.
  const bom = read?.startsWith(BOM) === true ? BOM : '';
  const before = read === null ? null : read.slice(bom.length);
  const plan = nestingChecked(target, () =>
    target.format === 'toml'
      ? planTomlConfig(target, before, entryOf, dryRun)
      : planJsonConfig(target, before, entryOf),
  );
  const notes = entryOf === null ? plan.notes : [...plan.notes, ...target.notes];
  return { ...plan, text: plan.text === null ? null : bom + plan.text, notes };
}

/**
 * `plan()`, with a file nested too deeply for the JSON reader (it recurses: thousands of `[`
 * overflow the stack) refused as AGENT_CONFIG_INVALID like any file it cannot read.
 */
function nestingChecked(target: InstallTarget, plan: () => ConfigPlan): ConfigPlan {
  try {
    return plan();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw configInvalid(target, `its values are nested too deeply to be read (${error.message})`);
  }
}

/** Whether `text` holds an entry of ours, or cannot be read as the agent's config. */
function holdsOurs(target: InstallTarget, text: string): boolean {
  try {
    return planOf(target, text, null).changes.length > 0;
  } catch {
    return true;
  }
}

/**
 * The install's record first (what was there, what install created), then the file, then (a file
 * install created) the record with the stamp of the file it made. A failed write leaves the record
 * as it was.
 */
async function recordAndWrite(
  home: string,
  target: InstallTarget,
  found: string | null,
  text: string,
): Promise<void> {
  const old = await readRecord(home, target.file);
  const step = {
    undo: found === null ? [] : undoSplices(found, text),
    foundHasOurs: found !== null && holdsOurs(target, found),
    dirs: found === null ? await missingDirs(dirname(target.file)) : [],
    made: await isCreatedFile(old, target.file, found),
  };
  const record = nextRecord(target.file, old, found, text, step);
  await recordThen(home, old, record, step.dirs, () => writeOwnFileAtomic(target.file, text));
  if (record.created) await writeRecord(home, await stamped(record));
}

/**
 * Uninstall's write; whether the file was written or removed. A file exactly as install last wrote
 * it goes back to the user's text byte for byte (a symbolic link's target too: the link is the
 * user's and stays). Any other is cut (the plan's text). The very file install created (its record,
 * in this home: isCreatedFile) goes, with the directories install created; any other file stays.
 */
async function giveBack(home: string, target: InstallTarget, found: string | null, plan: ConfigPlan) {
  const record = await readRecord(home, target.file);
  let wrote = false;
  const link = await lstat(target.file).then(
    (st) => st.isSymbolicLink(),
    () => false,
  );
  if (
    record !== null &&
    plan.removable === true &&
    !link &&
    (await isCreatedFile(record, target.file, found))
  ) {
    await rm(target.file, { force: true });
    await removeEmptyDirs(record.dirs);
    wrote = true;
  } else if (found !== null && plan.changes.length > 0) {
    const exact = record !== null && record.written === sha256(found);
    const restored = exact && record.undo !== undefined ? applySplices(found, record.undo) : null;
    if (restored !== null && !holdsOurs(target, restored)) await writeOwnFileAtomic(target.file, restored);
    else await writeOwnFileAtomic(target.file, plan.text as string);
    wrote = true;
  } else if (found === null && record !== null) await removeEmptyDirs(record.dirs); // the file went by hand
  await dropRecord(home, target.file);
  return wrote;
}

/** Cline's hooks directory: the directories install creates for it, recorded before `write` makes them. */
async function recordDirsThen(home: string, dir: string, write: () => Promise<void>): Promise<void> {
  const old = await readRecord(home, dir);
  const dirs = await missingDirs(dir);
  if (dirs.length === 0) return write();
  const record = {
    version: 1 as const,
    file: dir,
    created: old?.created === true || dirs.includes(dir),
    dirs: [...new Set([...dirs, ...(old?.dirs ?? [])])].sort((x, y) => y.length - x.length),
  };
  await recordThen(home, old, record, dirs, write);
}

/** Uninstall of Cline's hooks: the directories install created, removed when left empty. */
async function removeCreatedDirs(home: string, dir: string): Promise<void> {
  const record = await readRecord(home, dir);
  if (record === null) return;
  await removeEmptyDirs(record.dirs);
  await dropRecord(home, dir);
}
