import { readFileSync } from 'node:fs';
import { readRegularText } from '../fs/regular-file.js';
import { join } from 'node:path';
import { ProbeCacheRecord } from '../../types/checkpoint.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { isRacy, stampsHold, stampsOf, type Stamp } from '../fs/stamps.js';
import { probeInputs, type WorkspaceProbe } from '../git/checkpoint-repo.js';
import type { StoreLocation } from './project-id.js';

/**
 * What opening a store asks git before every operation, kept in `<store>/probe.json` so that an
 * agent hook (one process per event) does not start git for it each time: the workspace probe
 * (`rev-parse`) and the user's `core.excludesFile` setting (`git config --file`, per global config
 * file). Each answer is kept with the stamps (fs/stamps.ts) of the entries that decide it and is
 * used only while every stamp holds: one lstat each instead of a git process. An answer derived
 * from an entry changed in the last two seconds is not kept (isRacy).
 */

export interface CachedAnswers {
  probe?: WorkspaceProbe;
  /** The `core.excludesFile` setting (null: none), as userExcludesSetting reads it. */
  configured?: string | null;
}

/** The answers in `location`'s probe.json for `workspace` that still hold; none when absent, torn or stale. */
export async function readCachedAnswers(
  location: StoreLocation,
  workspace: string,
  configFiles: readonly string[],
): Promise<CachedAnswers> {
  const record = await readRecord(location);
  if (record === null || record.workspace !== workspace) return {};
  const [probeNow, configNow] = await Promise.all([
    stampsOf((record.probe?.stamps ?? []).map((s) => s.path)),
    stampsOf(configFiles),
  ]);
  const out: CachedAnswers = {};
  const p = record.probe;
  // Only the shape saveAnswers keeps is taken: a hand-made record cannot point a capture elsewhere.
  const expected = p?.isRepository ? join(workspace, '.git', 'info', 'exclude') : null;
  if (
    p !== undefined &&
    p.root === workspace &&
    p.excludesFile === expected &&
    stampsHold(p.stamps, probeNow)
  ) {
    out.probe = { root: p.root, isRepository: p.isRepository, excludesFile: p.excludesFile };
  }
  if (record.userExcludes !== undefined && stampsHold(record.userExcludes.stamps, configNow)) {
    out.configured = record.userExcludes.configured;
  }
  return out;
}

/**
 * Keeps the answers git gave for `workspace` in probe.json, when they can be kept (see
 * probeInputs and acceptable). Best effort: a cache that cannot be written only costs the next
 * call a git process.
 */
export async function saveAnswers(
  location: StoreLocation,
  workspace: string,
  configFiles: readonly string[],
  answers: { probe: WorkspaceProbe; configured: string | null },
): Promise<void> {
  const inputs = probeInputs(workspace, answers.probe);
  const [probeStamps, configStamps] = await Promise.all([stampsOf(inputs ?? []), stampsOf(configFiles)]);
  const keepProbe = inputs !== null && (await acceptable(answers.probe, probeStamps));
  // A setting read through an include cannot be vouched for by these files' stamps: asked each time.
  const keepConfig = !isRacy(configStamps) && !includesOthers(configFiles);
  if (!keepProbe && !keepConfig) return;
  const { root, isRepository, excludesFile } = answers.probe;
  const record: ProbeCacheRecord = {
    workspace,
    ...(keepProbe ? { probe: { root, isRepository, excludesFile, stamps: probeStamps.map(plain) } } : {}),
    ...(keepConfig
      ? { userExcludes: { configured: answers.configured, stamps: configStamps.map(plain) } }
      : {}),
  };
  await writeJsonAtomic(location.probeFile, record).catch(() => undefined);
}

/**
 * Whether the stamps pin the probe's answer down: outside a repository, nothing that discovery
 * would stop at exists; in one, `.git` is a directory, no `commondir`, and a config without
 * include directives (an included file could set core.worktree and has no stamp here).
 */
async function acceptable(probe: WorkspaceProbe, stamps: readonly Stamp[]): Promise<boolean> {
  if (isRacy(stamps)) return false;
  if (!probe.isRepository) return stamps.every((s) => s.sig === 'none');
  const [, gitDir, config, worktreeConfig, commondir] = stamps;
  if (!gitDir?.sig.startsWith('dir:') || commondir?.sig !== 'none' || worktreeConfig?.sig !== 'none')
    return false;
  if (config === undefined || !config.sig.startsWith('file:')) return false;
  const text = await readRegularText(config.path);
  return text !== null && !/^\s*\[\s*include/im.test(text);
}

function plain(s: Stamp): { path: string; sig: string } {
  return { path: s.path, sig: s.sig };
}

async function readRecord(location: StoreLocation): Promise<ProbeCacheRecord | null> {
  try {
    const parsed = ProbeCacheRecord.safeParse(JSON.parse((await readRegularText(location.probeFile)) ?? ''));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether one of the user's config files includes another (an `[include]` or `[includeIf]` section). */
function includesOthers(files: readonly string[]): boolean {
  return files.some((file) => {
    try {
      return /^\s*\[\s*include/im.test(readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
  });
}
