import { lstat, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SkippedFile, StoreMeta, TrackResult } from '../../types/checkpoint.js';
import {
  DEFAULT_GIT_TIMEOUT_MS,
  DEFAULT_KEEP,
  DEFAULT_MAX_FILE_SIZE_BYTES,
  DEFAULT_MAX_STORE_BYTES,
} from '../../types/config.js';
import { CheckpointNotFoundError } from '../errors.js';
import { writeFileAtomic, writeJsonAtomic } from '../fs/atomic.js';
import { DEFAULT_LOCK_TIMEOUT_MS, withLock } from '../fs/lock.js';
import { makeOwnDir } from '../fs/own-dir.js';
import type { RepoDamage } from '../git/checkpoint-health.js';
import {
  checkpointRepo,
  initCheckpointRepo,
  probeWorkspace,
  rootCommit,
  type CheckpointRepo,
} from '../git/checkpoint-repo.js';
import { isCheckpointRevision, listTree, type TreeEntry } from '../git/checkpoint-trees.js';
import { listRefRecords, readRef } from '../git/refs.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { assertSafeWorkspace, isInside, noWorkTree, resolveWorkspaceDir } from '../git/repo.js';
import { userExcludesPath, userExcludesSetting, userIgnoreConfigFiles } from '../git/user-ignore.js';
import { layout, resolveHome } from '../store/paths.js';
import { applyPlan, type Applied } from './apply.js';
import { dropBudget } from './budget-count.js';
import { captureWithoutLost, type Capture } from './capture.js';
import {
  BASELINE_REF,
  CHECKPOINT_REF_PREFIX,
  decodeMessage,
  LATEST_REF,
  META_REF_PREFIX,
  recordedTrees,
  type AgentTag,
  type CheckpointMeta,
} from './message.js';
import { linePosition, type LinePlace } from './sessions.js';
import { assertCheckpointsOptions, type CheckpointsOptions } from './options.js';
import type { Plan } from './plan.js';
import { existingStore, storeAbove, storeOf, type StoreLocation } from './project-id.js';
import { locateOrAdopt, workspaceIdentity } from './moved-store.js';
import { readCachedAnswers, saveAnswers } from './probe-cache.js';
import { recordCheckpoint } from './record.js';
import {
  corruptError,
  damageBehind,
  findDamage,
  recoverStore,
  reindexedPacks,
  restagedText,
} from './recovery.js';
import { skipRecord, type Skip } from './skip-rules.js';
import { TrackedIgnored, workspaceIndex } from './tracked-ignored.js';
import { repairOnAcquire } from './upkeep.js';
import { assertCheckpointRoot, physicalPath, toAbsolute, untouchable } from './workspace-paths.js';

export interface Tracked extends TrackResult {
  skips: Skip[];
  /** The checkpoint's commit. */
  commit: string;
}

/**
 * One opened checkpoint store and the primitives every operation is built from: the lock, a
 * capture, recording a checkpoint, resolving a checkpoint, and writing a plan into the workspace.
 * `Checkpoints` (checkpoints.ts) is the public face; compare.ts and restore.ts hold its reads and
 * its writes to the workspace.
 */
export class CheckpointStore {
  /** Whether the baseline marker is known to exist (track learns it from its ref read). */
  baselineKnown = false;
  /** What track did about a damaged store (recovery.ts), in words; null when it found none. */
  recovered: string | null = null;
  private unsavedProbe: (() => Promise<void>) | null = null;
  private storeReady = false;

  private constructor(
    /** Real path of the workspace root (the repository's top level when it is one). */
    readonly workspace: string,
    readonly location: StoreLocation,
    readonly repo: CheckpointRepo,
    /** Git paths never captured or touched: our home and extra excludes inside the workspace. */
    private readonly excluded: readonly string[],
    /** Those of them that are the repository's git dirs (a `.git` file naming `.realgit`): out of the index too. */
    private readonly gitDirs: readonly string[],
    /** The same, as absolute paths, for checking user-given paths. */
    readonly forbidden: readonly string[],
    private readonly maxFileSizeBytes: number,
    private readonly lockTimeoutMs: number,
    /** The user's global ignore file (core.excludesFile), mirrored into the repository's info/exclude. */
    private readonly userExcludes: string | null,
    readonly maxStoreBytes: number,
    readonly keep: number,
    readonly trackedIgnored: TrackedIgnored,
  ) {}

  /** An index.lock older than this cannot belong to a live git call of ours (they time out sooner). */
  private get staleIndexLockMs(): number {
    return (this.repo.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS) + 5_000;
  }

  /**
   * Opens (without creating) the checkpoint store of the workspace containing `dir`. Throws
   * WORKSPACE_NOT_FOUND, or UNSAFE_WORKSPACE for `/`, a home directory, a `.git` directory, a bare
   * repository or a directory inside a git dir, or our own checkpoint directory.
   */
  static async open(dir: string, opts: CheckpointsOptions = {}): Promise<CheckpointStore> {
    assertCheckpointsOptions(dir, opts);
    const real = await resolveWorkspaceDir(dir);
    assertSafeWorkspace(real);
    const gitOpts = {
      ...(opts.identity ? { identity: opts.identity } : {}),
      ...(opts.gitTimeoutMs ? { timeoutMs: opts.gitTimeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    };
    const home = await physicalPath(resolveHome(opts.home));
    const checkpointsDir = layout(home).checkpoints;
    const ignoreOpts = { home: homedir(), xdgConfigHome: process.env.XDG_CONFIG_HOME, cwd: real, ...gitOpts };
    const configFiles = userIgnoreConfigFiles(ignoreOpts);
    // An existing store of this directory keeps what git said last time (probe-cache.ts).
    const known = await existingStore(checkpointsDir, real);
    const cached = known === null ? {} : await readCachedAnswers(known, real, configFiles);
    // Independent of the probe (an explicit --file): started beside it, which an agent hook's wall time feels.
    const configured =
      cached.configured !== undefined ? Promise.resolve(cached.configured) : userExcludesSetting(ignoreOpts);
    configured.catch(() => undefined);
    const probe = cached.probe ?? (await probeWorkspace(real, gitOpts));
    // A bare repository's refs and objects are no workspace files (never cached: it holds a HEAD).
    if (probe.inGitDir === true) throw noWorkTree(real);
    const above =
      probe.isRepository || known !== null ? null : await storeAbove(checkpointsDir, real, homedir());
    const root = above?.root ?? probe.root;
    // probeWorkspace refused a work tree that git places elsewhere (core.worktree, a `.git` file).
    assertCheckpointRoot(root, home);
    const { forbidden, excluded, gitDirs } = await untouchable(root, home, opts.excludePaths, probe.gitDir);
    const location =
      above?.location ??
      (known !== null && root === real
        ? known
        : await locateOrAdopt(checkpointsDir, root, () =>
            probe.isRepository ? rootCommit(root, gitOpts) : Promise.resolve(null),
          ));
    const setting = await configured;
    const repo = checkpointRepo({
      workspace: root,
      gitDir: location.gitDir,
      indexFile: location.indexFile,
      excludesFile: probe.excludesFile,
      ...gitOpts,
    });
    const maxBytes = opts.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES;
    const store = new CheckpointStore(
      root,
      location,
      repo,
      excluded,
      gitDirs,
      forbidden,
      maxBytes,
      opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      await userExcludesPath(setting, ignoreOpts),
      opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
      opts.keep ?? DEFAULT_KEEP,
      new TrackedIgnored(root, above === null ? workspaceIndex(probe) : null, location.dir, gitOpts),
    );
    if (known !== null && (cached.probe === undefined || cached.configured === undefined))
      store.unsavedProbe = () => saveAnswers(known, real, configFiles, { probe, configured: setting });
    return store;
  }

  /**
   * Keeps git's answers for the next open (probe-cache.ts), once a checkpoint was written: a command
   * that fails, or only reads, leaves the home as it found it.
   */
  async saveProbe(): Promise<void> {
    const save = this.unsavedProbe;
    this.unsavedProbe = null;
    if (save !== null) await save();
  }

  /**
   * Runs `fn` holding the store lock. `track` creates the store when there is none and sets the
   * damaged part of a damaged one aside (recovery.ts; `recovered` then says what was done). Any
   * other use finds the store as it is or fails, writing nothing of its own: CHECKPOINT_NOT_FOUND
   * when there is no store (none is made), STORE_CORRUPT when it is damaged.
   */
  locked<T>(purpose: string, use: 'track' | 'existing', fn: () => Promise<T>): Promise<T> {
    const track = use === 'track';
    const run = () =>
      withLock(this.location.lockPath, { timeoutMs: this.lockTimeoutMs, purpose }, async (lock) => {
        const recovered = lock.recovered !== null;
        await Promise.all([
          repairOnAcquire(this.repo, this.location, recovered, this.staleIndexLockMs, this.lockTimeoutMs),
          // A dead holder may have written anything: the budget's count no longer holds (budget-count.ts).
          recovered ? dropBudget(this.location) : undefined,
        ]);
        await this.ensureStore(track);
        return fn().catch(async (error: unknown) => {
          if (await reindexedPacks(this.repo, this.location, error)) return fn();
          // A ref naming an object that is gone, or a shared index that is, shows only when git reads it (recovery.ts).
          const damage = await damageBehind(this.repo, this.location, error, true);
          if (damage === null) throw error;
          if (!track) throw corruptError(this.location, damage);
          await this.recover(damage);
          return fn();
        });
      });
    if (track) return this.makeHomeInside().then(run);
    // Checked before the lock, whose file would make the store's directory.
    return storeOf(this.location, this.workspace).then((state) => {
      if (state === 'none') throw this.noStore();
      return run();
    });
  }

  /**
   * Before a track's lock makes the home: a home inside the workspace that is not there yet is made
   * marked as ours (makeOwnDir), so that no later call with another home ever commits it.
   */
  private async makeHomeInside(): Promise<void> {
    const home = this.forbidden[0] as string; // open() puts the home first
    if (home !== this.workspace && isInside(this.workspace, home)) await makeOwnDir(home);
  }

  /** Whether there is a store; STORE_CORRUPT when there is one and it is damaged (recovery.ts). */
  async exists(): Promise<boolean> {
    if ((await storeOf(this.location, this.workspace)) === 'none') return false;
    const damage = await findDamage(this.location);
    if (damage !== null) throw corruptError(this.location, damage);
    return true;
  }

  /** A read outside the lock: a git failure that a damaged ref explains is STORE_CORRUPT (recovery.ts). */
  async reading<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (await reindexedPacks(this.repo, this.location, error)) return this.reading(fn);
      const damage = await damageBehind(this.repo, this.location, error);
      throw damage === null ? error : corruptError(this.location, damage);
    }
  }

  /**
   * The tree of the recorded checkpoint `rev` names: a checkpoint's tree or commit id (full, or
   * abbreviated to one checkpoint), or one of our refs. Any other object of the store (a
   * subdirectory's tree, a pruned checkpoint) is CHECKPOINT_NOT_FOUND: restoring it would make
   * the workspace that subdirectory. The caller holds the lock.
   */
  async requireCheckpoint(rev: string): Promise<string> {
    return (await this.resolveCheckpoints([rev])).trees[0] as string;
  }

  /**
   * requireCheckpoint for several revisions, from one listing of the refs, which it returns too: a
   * safety checkpoint taken next under the same lock reads its markers there (trackLocked).
   */
  async resolveCheckpoints(revs: readonly string[]): Promise<{ trees: string[]; refs: RefRecord[] }> {
    for (const rev of revs) this.assertRevision(rev);
    const refs = await listRefRecords(this.repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
    const trees = revs.map((rev) => {
      const found = recordedTrees(refs, rev);
      if (found.length === 1) return found[0] as string;
      throw this.notFound(rev, found.length > 1);
    });
    return { trees, refs };
  }

  /**
   * Captures the workspace as a tree (capture.ts). Caller holds the lock. A capture writes objects
   * that only a track accounts for (`forTrack`): any other drops the budget's count first
   * (budget-count.ts), so that the next track counts. When objects may have gone from the store
   * since the latest checkpoint, it makes sure that the tree names none that is lost (capture.ts
   * captureWithoutLost); a track says so in `recovered`.
   */
  async capture(
    opts: { forTrack?: boolean; nested?: readonly string[]; checkObjects?: boolean } = {},
  ): Promise<Capture> {
    if (opts.forTrack !== true) await dropBudget(this.location);
    const { capture, restaged } = await captureWithoutLost({
      root: this.workspace,
      repo: this.repo,
      excluded: this.excluded,
      gitDirs: this.gitDirs,
      maxFileSizeBytes: this.maxFileSizeBytes,
      storeDir: this.location.dir,
      trackedIgnored: (storeIgnored) => this.trackedIgnored.load(storeIgnored, opts.forTrack === true),
      ...(opts.checkObjects === true ? { checkObjects: true } : {}),
      ...(opts.nested === undefined ? {} : { nested: opts.nested }),
    });
    if (restaged.length > 0) {
      // The first try wrote objects that no bound covers: the next track counts (budget-count.ts).
      await dropBudget(this.location);
      if (opts.forTrack === true) this.noteRecovered(restagedText(this.location, restaged));
    }
    return capture;
  }

  /**
   * Records a capture (default: a new one) as a checkpoint (record.ts). Caller holds the lock;
   * `refs`: the store's refs as listed under it (resolveCheckpoints).
   */
  async trackLocked(
    label: string | null,
    kind: CheckpointMeta['kind'],
    baseline: boolean,
    tag: AgentTag = {},
    captured?: Capture,
    refs?: readonly RefRecord[],
  ): Promise<Tracked> {
    // The markers give the newest checkpoint (its place in the line) and whether a baseline exists:
    // from `refs` when the caller listed them under this lock.
    const [{ treeId, skipped }, markers] = await Promise.all([
      captured ?? this.capture(),
      refs ?? listRefRecords(this.repo, [META_REF_PREFIX]),
    ]);
    if (markers.some((r) => r.ref === BASELINE_REF)) this.baselineKnown = true;
    const latest = markers.find((r) => r.ref === LATEST_REF);
    const line = tag.seq !== undefined ? {} : this.placeAfter(latest, kind, tag);
    const { ref, commit } = await recordCheckpoint(this.repo, treeId, {
      label,
      kind,
      setBaseline: baseline || !(await this.hasBaseline()),
      tag: { ...tag, ...line },
      skips: skipRecord(skipped),
      latest,
    });
    this.baselineKnown = true;
    return { hash: treeId, ref, commit, skipped: skipped.map((s) => this.skippedFile(s)), skips: skipped };
  }

  /** The line position (sessions.ts) of a checkpoint `kind`/`tag` recorded after the one `latest` marks. */
  placeAfter(latest: RefRecord | undefined, kind: CheckpointMeta['kind'], tag: AgentTag): LinePlace {
    return linePosition(latest === undefined ? null : decodeMessage(latest.body, latest.date), {
      kind,
      ...tag,
    });
  }

  /** Writes a plan into the workspace (apply.ts), never touching excluded or skipped paths. */
  apply(plan: Plan, current: ReadonlyMap<string, TreeEntry>, safety: Tracked): Promise<Applied> {
    const blocked = [...this.excluded, ...safety.skips.map((s) => s.path)];
    const tracked = this.trackedIgnored.current;
    const ctx = { root: this.workspace, repo: this.repo, tempDir: this.location.tempDir, current, blocked };
    return applyPlan({ ...ctx, safety: safety.hash, tracked }, plan);
  }

  skippedFile(s: Skip): SkippedFile {
    return { path: toAbsolute(this.workspace, s.path), reason: s.reason, size: s.size };
  }

  absolute(paths: readonly string[]): string[] {
    return paths.map((p) => toAbsolute(this.workspace, p));
  }

  assertRevision(hash: string): void {
    if (!isCheckpointRevision(hash)) throw this.notFound(hash);
  }

  notFound(hash: string, ambiguous = false): CheckpointNotFoundError {
    const why = ambiguous
      ? `"${hash.slice(0, 80)}" is the start of more than one checkpoint of ${this.workspace}; give more of its characters`
      : `no checkpoint ${JSON.stringify(hash.slice(0, 80))} in the store of ${this.workspace}`;
    return new CheckpointNotFoundError(`${why}; see "checkpoint list"`, {
      details: { hash: hash.slice(0, 200), workspace: this.workspace },
    });
  }

  private noStore(): CheckpointNotFoundError {
    return new CheckpointNotFoundError(
      `there are no checkpoints of ${this.workspace} yet; "checkpoint track" records one`,
      { details: { workspace: this.workspace } },
    );
  }

  async requireListing(hash: string): Promise<Map<string, TreeEntry>> {
    const listing = await listTree(this.repo, hash);
    if (listing === null) throw this.notFound(hash);
    return listing;
  }

  private async hasBaseline(): Promise<boolean> {
    if (!this.baselineKnown) this.baselineKnown = (await readRef(this.repo, BASELINE_REF)) !== null;
    return this.baselineKnown;
  }

  /** Makes sure of the store before a locked operation: see locked(). */
  private async ensureStore(track: boolean): Promise<void> {
    // Once made sure of, a store is only checked again for damage (a few file reads).
    if (this.storeReady && (await findDamage(this.location, true)) === null) return;
    this.storeReady = false;
    const state = await storeOf(this.location, this.workspace);
    if (state === 'none' && !track) throw this.noStore();
    // An index is left over from a store whose git dir is gone: it names objects no more there.
    const leftover = state === 'none' && (await lstat(this.location.indexFile).catch(() => null)) !== null;
    const damage = state !== 'none' || leftover ? await findDamage(this.location, true) : null;
    if (damage !== null && !track) throw corruptError(this.location, damage);
    if (damage !== null) await this.recover(damage);
    if (state === 'none' || (damage !== null && damage.unusable !== null))
      await initCheckpointRepo(this.repo);
    // A damaged or missing store.json is written again by a track: the checkpoints in the repository stay.
    if (state !== 'intact' && track)
      await writeJsonAtomic(this.location.metaFile, {
        workspace: this.workspace,
        projectId: this.location.projectId,
        createdAt: new Date().toISOString(),
        workspaceId: await workspaceIdentity(this.workspace),
      } satisfies StoreMeta);
    await this.mirrorUserExcludes();
    // Not while store.json is still to be written again (by a track).
    this.storeReady = state === 'intact' || track;
  }

  /** Sets the damaged part aside (track only), saying so in `recovered`; a damaged index is made again. */
  private async recover(damage: RepoDamage): Promise<void> {
    this.baselineKnown = false;
    this.noteRecovered(await recoverStore(this.repo, this.location, damage));
  }

  /** Adds `done` to what `recovered` says of this call's recoveries. */
  noteRecovered(done: string): void {
    this.recovered = this.recovered === null ? done : `${this.recovered}; ${done}`;
  }

  /**
   * The repository's own info/exclude is already honoured as core.excludesFile; the user's global
   * ignore file goes into the checkpoint repository's info/exclude (rewritten when it changed), so
   * that checkpoints ignore what the user's git ignores, and nothing else of the user's config.
   */
  private async mirrorUserExcludes(): Promise<void> {
    const target = join(this.location.gitDir, 'info', 'exclude');
    const [wanted, have] = await Promise.all([
      this.userExcludes === null ? '' : readFile(this.userExcludes, 'utf8').catch(() => ''),
      readFile(target, 'utf8').catch(() => null),
    ]);
    if (have !== wanted) await writeFileAtomic(target, wanted);
  }
}
