import { access, readFile, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import type {
  CheckpointEntry,
  FileDiff,
  GcResult,
  Patch,
  RestoreResult,
  RevertResult,
  SkippedFile,
  StoreStatus,
  TrackResult,
} from '../../types/checkpoint.js';
import {
  DEFAULT_GIT_TIMEOUT_MS,
  DEFAULT_KEEP,
  DEFAULT_MAX_FILE_SIZE_BYTES,
  DEFAULT_MAX_STORE_BYTES,
  type Identity,
} from '../../types/config.js';
import {
  CheckpointNotFoundError,
  InvalidArgumentError,
  PathNotFoundError,
  UnsafeWorkspaceError,
} from '../errors.js';
import { decodeBytes } from '../fs/path-bytes.js';
import { ignoredPaths } from '../git/checkpoint-index.js';
import {
  checkpointRepo,
  countObjects,
  initCheckpointRepo,
  probeWorkspace,
  rootCommit,
  type CheckpointRepo,
} from '../git/checkpoint-repo.js';
import {
  changedPaths,
  diffTrees,
  isCheckpointRevision,
  listTree,
  readObjects,
  resolveTreeId,
  unifiedTreeDiff,
  type TreeEntry,
} from '../git/checkpoint-trees.js';
import { isNullId } from '../git/ids.js';
import { listRefRecords, readRef } from '../git/refs.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { assertSafeWorkspace, isInside, resolveWorkspaceDir } from '../git/repo.js';
import { userExcludesFile } from '../git/user-ignore.js';
import { writeFileAtomic, writeJsonAtomic } from '../fs/atomic.js';
import { DEFAULT_LOCK_TIMEOUT_MS, withLock } from '../fs/lock.js';
import { layout, resolveHome } from '../store/paths.js';
import { applyPlan, type Applied } from './apply.js';
import { captureWorkspace, type Capture } from './capture.js';
import { knownPaths, recordCheckpoint } from './record.js';
import {
  BASELINE_REF,
  CHECKPOINT_REF_PREFIX,
  entryOf,
  LATEST_REF,
  META_REF_PREFIX,
  SAFETY_REF,
  type AgentTag,
  type CheckpointMeta,
} from './message.js';
import { changedBetween, firstPatchWins, planChanges, restoreDesired } from './plan.js';
import { locateStore, readStoredWorkspace, type StoreLocation } from './project-id.js';
import { assertRetention, DEFAULT_PRUNE_AGE } from './retention.js';
import type { Skip } from './skip-rules.js';
import { gcStore, keepWithinBudget, readUpkeep, repairOnAcquire, storeBytes } from './upkeep.js';
import { toAbsolute, toGitPath, toWorkspaceGitPath } from './workspace-paths.js';

export interface CheckpointsOptions {
  /** The agentgate home (default: $AGENTGATE_HOME, else ~/.agentgate). */
  home?: string;
  /** Untracked files larger than this are not captured and are reported as skipped (default 10 MiB). */
  maxFileSizeBytes?: number;
  /** Further absolute paths never captured (e.g. an artifacts directory inside the workspace). */
  excludePaths?: readonly string[];
  /** How long to wait for another process using the same store (default 30 s), then LOCK_TIMEOUT. */
  lockTimeoutMs?: number;
  gitTimeoutMs?: number;
  identity?: Identity;
  /** After each `track`, the oldest unprotected checkpoints are pruned to keep the store under this (default 2 GiB). */
  maxStoreBytes?: number;
  /** Stops every git call (and the wait for the lock's git work) when aborted: an agent hook's time budget. */
  signal?: AbortSignal;
}

/** How `track` labels a checkpoint taken by an agent hook. */
export interface TrackOptions {
  /** Make this checkpoint the session's baseline. */
  baseline?: boolean;
  /** The agent's session id and hook event, shown by `list`. */
  session?: string;
  event?: string;
  /** The state just before the session's next prompt: numbered 1, 2, ... per session (`prompt` in `list`). */
  beforePrompt?: boolean;
  /** Record nothing when the state is the one `latest` already holds (a hook after a read-only tool). */
  unlessUnchanged?: boolean;
}

/** `track`'s result, plus the prompt number it was given and what went wrong in automatic upkeep (the checkpoint stands). */
export interface TrackOutcome extends TrackResult {
  prompt?: number;
  /** With `unlessUnchanged`: nothing was recorded, `latest` already holds this state (hash and ref are its). */
  unchanged?: boolean;
  upkeepError?: unknown;
}

export interface GcOptions {
  /** Checkpoint refs to keep, newest first (default 100); baseline, latest and last safety are always kept. */
  keep?: number;
  /** Unreachable objects older than this are pruned by gc (default `2.weeks.ago`; `now` prunes all). */
  pruneAge?: string;
}

/** The earlier name of GcOptions. */
export type CleanupOptions = GcOptions;

/** The checkpoints the marker refs point at. */
export interface CheckpointMarkers {
  baseline: CheckpointEntry | null;
  latest: CheckpointEntry | null;
  safety: CheckpointEntry | null;
}

interface Tracked extends TrackResult {
  skips: Skip[];
}

/**
 * Step-by-step states of a workspace in a private git object store (see project-id.ts for the
 * layout). The workspace's own `.git` is only read, never written; directories that are not git
 * repositories work too.
 *
 * A capture stages everything the workspace's ignore rules (`.gitignore` files and the
 * repository's `info/exclude`) do not exclude, except our home, nested repositories and untracked
 * files above the size cap, into the store's persistent index, and writes a tree. `track` keeps
 * that tree reachable: a parentless commit under `refs/checkpoints/<time>-<random>` (label and
 * time in its message), plus `refs/checkpoints-meta/latest`.
 *
 * Session: `refs/checkpoints-meta/baseline` marks the first checkpoint of the current session. A
 * session starts with `startSession()` (or `track(label, { baseline: true })`), or implicitly with
 * the first checkpoint of a store that has no baseline yet; later tracks, from any process,
 * continue it.
 *
 * Every operation that writes the store (all but `list`) holds the store's cross-process lock.
 */
export class Checkpoints {
  private baselineKnown = false;
  private storeReady = false;

  private constructor(
    /** Real path of the workspace root (the repository's top level when it is one). */
    readonly workspace: string,
    readonly location: StoreLocation,
    private readonly repo: CheckpointRepo,
    /** Git paths never captured or touched: our home and extra excludes inside the workspace. */
    private readonly excluded: readonly string[],
    /** The same, as absolute paths, for checking user-given paths. */
    private readonly forbidden: readonly string[],
    private readonly maxFileSizeBytes: number,
    private readonly lockTimeoutMs: number,
    /** The user's global ignore file (core.excludesFile), mirrored into the repository's info/exclude. */
    private readonly userExcludes: string | null,
    private readonly maxStoreBytes: number,
  ) {}

  /** An index.lock older than this cannot belong to a live git call of ours (they time out sooner). */
  private get staleIndexLockMs(): number {
    return (this.repo.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS) + 5_000;
  }

  /**
   * Opens (without creating) the checkpoint store of the workspace containing `dir`. Throws
   * WORKSPACE_NOT_FOUND, or UNSAFE_WORKSPACE for `/`, a home directory, a `.git` directory or our
   * own checkpoint directory.
   */
  static async open(dir: string, opts: CheckpointsOptions = {}): Promise<Checkpoints> {
    const real = await resolveWorkspaceDir(dir);
    assertSafeWorkspace(real);
    const gitOpts = {
      ...(opts.identity ? { identity: opts.identity } : {}),
      ...(opts.gitTimeoutMs ? { timeoutMs: opts.gitTimeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    };
    // Independent of the probe (an explicit --file): started beside it, which an agent hook's wall time feels.
    const userExcludes = userExcludesFile({
      home: homedir(),
      xdgConfigHome: process.env.XDG_CONFIG_HOME,
      cwd: real,
      ...gitOpts,
    });
    userExcludes.catch(() => undefined);
    const probe = await probeWorkspace(real, gitOpts);
    const root = probe.root;
    // probeWorkspace refused a work tree that git places elsewhere (core.worktree, a `.git` file).
    assertSafeWorkspace(root);
    const home = await physicalPath(resolveHome(opts.home));
    const checkpointsDir = layout(home).checkpoints;
    if (root.split(sep).includes('.git') || root === home || isInside(checkpointsDir, root)) {
      throw new UnsafeWorkspaceError(
        `refusing to use ${root} as a workspace: it is a .git directory or agentgate's own data; give the path of a project directory`,
        {
          details: { workspace: root },
        },
      );
    }
    const forbidden = [home, ...(await Promise.all((opts.excludePaths ?? []).map(physicalPath)))];
    const excluded = forbidden.filter((p) => p !== root && isInside(root, p)).map((p) => toGitPath(root, p));
    const location = await locateStore(checkpointsDir, root, () =>
      probe.isRepository ? rootCommit(root, gitOpts) : Promise.resolve(null),
    );
    const repo = checkpointRepo({
      workspace: root,
      gitDir: location.gitDir,
      indexFile: location.indexFile,
      excludesFile: probe.excludesFile,
      ...gitOpts,
    });
    const maxBytes = opts.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES;
    return new Checkpoints(
      root,
      location,
      repo,
      excluded,
      forbidden,
      maxBytes,
      opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      await userExcludes,
      opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
    );
  }

  /**
   * Records the current state as a new checkpoint, then keeps the store within its budget (see
   * keepWithinBudget in upkeep.ts); an upkeep failure is returned, not thrown: the checkpoint stands.
   */
  async track(label?: string, opts: TrackOptions = {}): Promise<TrackOutcome> {
    return this.locked('checkpoint track', async () => {
      // One read of the refs (the markers; the checkpoints too when a prompt is numbered) gives the
      // prompt number, latest's tree and whether there is a baseline. It does not touch what the
      // capture writes (the index, objects), so it runs beside it: an agent hook feels every process.
      const numbered = opts.beforePrompt === true && opts.session !== undefined;
      const [records, captured] = await Promise.all([
        listRefRecords(this.repo, numbered ? [CHECKPOINT_REF_PREFIX, META_REF_PREFIX] : [META_REF_PREFIX]),
        this.capture(),
      ]);
      if (records.some((r) => r.ref === BASELINE_REF)) this.baselineKnown = true;
      const latestTree = records.find((r) => r.ref === LATEST_REF)?.tree ?? null;
      const prompt = numbered ? nextPromptOf(records, opts.session as string) : undefined;
      const tag: AgentTag = {
        ...(opts.session === undefined ? {} : { session: opts.session }),
        ...(opts.event === undefined ? {} : { event: opts.event }),
        ...(prompt === undefined ? {} : { prompt }),
      };
      if (opts.unlessUnchanged && captured.treeId === latestTree) {
        const ref = (await this.markers()).latest?.ref ?? LATEST_REF;
        const skipped = captured.skipped.map((s) => this.skippedFile(s));
        return { hash: captured.treeId, ref, skipped, unchanged: true };
      }
      const t = await this.trackLocked(label ?? null, 'track', opts.baseline === true, tag, captured);
      const upkeepError = await keepWithinBudget(this.repo, this.location, this.maxStoreBytes).then(
        () => undefined,
        (error: unknown) => error,
      );
      return {
        hash: t.hash,
        ref: t.ref,
        skipped: t.skipped,
        ...(prompt === undefined ? {} : { prompt }),
        ...(upkeepError === undefined ? {} : { upkeepError }),
      };
    });
  }

  /**
   * The checkpoint taken just before the `prompt`-th prompt of `session` (default: the session of
   * the newest checkpoint an agent hook took). CHECKPOINT_NOT_FOUND when there is none.
   */
  async beforePrompt(prompt: number, session?: string): Promise<CheckpointEntry> {
    const entries = await this.list();
    const chosen = session ?? entries.find((e) => e.session !== undefined)?.session;
    const hit = entries.find((e) => e.session === chosen && e.prompt === prompt);
    if (hit !== undefined) return hit;
    const which = chosen === undefined ? 'no agent session has checkpoints' : `session ${chosen}`;
    throw new CheckpointNotFoundError(
      `no checkpoint before prompt ${prompt} (${which}); it may not exist or was pruned to fit the store's budget; see "checkpoint list"`,
      { details: { prompt, session: chosen ?? null, workspace: this.workspace } },
    );
  }

  /** The store's size against its budget, its checkpoints and objects, and what automatic upkeep pruned. */
  async status(): Promise<StoreStatus> {
    const upkeep = await readUpkeep(this.location);
    const base = { workspace: this.workspace, budgetBytes: this.maxStoreBytes, ...upkeep };
    if (!(await this.exists())) return { ...base, storeBytes: 0, checkpoints: 0, looseObjects: 0, packs: 0 };
    const counts = await countObjects(this.repo);
    return {
      ...base,
      storeBytes: await storeBytes(this.repo, counts),
      checkpoints: (await this.list()).length,
      looseObjects: counts.loose,
      packs: counts.packs,
    };
  }

  /** Starts a session: records a checkpoint and makes it the baseline. */
  async startSession(label?: string): Promise<TrackResult> {
    return this.track(label, { baseline: true });
  }

  /** Files changed since checkpoint `hash`, as absolute paths (the current state is captured first, without a checkpoint). */
  async patch(hash: string): Promise<Patch> {
    return this.locked('checkpoint patch', async () => {
      const from = await this.requireTreeId(hash);
      const { treeId } = await this.capture();
      const files = await this.withoutNowIgnored(await changedPaths(this.repo, from, treeId));
      return { hash: from, files: files.map((f) => toAbsolute(this.workspace, f)) };
    });
  }

  /**
   * Unified diff (binary-safe, applicable with `git apply`) from checkpoint `hash` to the current
   * state, byte for byte as git wrote it.
   */
  async diffBytes(hash: string): Promise<Buffer> {
    return this.locked('checkpoint diff', async () => {
      const from = await this.requireTreeId(hash);
      const { treeId } = await this.capture();
      const changed = await changedPaths(this.repo, from, treeId);
      const ignored = await ignoredPaths(this.repo, changed);
      return unifiedTreeDiff(this.repo, from, treeId, [...ignored]);
    });
  }

  /** diffBytes as a string, decoded losslessly: bytes that are not UTF-8 become U+DC80..U+DCFF (fs/path-bytes.ts). */
  async diff(hash: string): Promise<string> {
    return decodeBytes(await this.diffBytes(hash));
  }

  /**
   * Per-file before/after contents between two checkpoints (`to` defaults to the current state).
   * Contents of every file come from one `cat-file --batch` process; binary files have empty
   * contents and zero counts. Paths are workspace-relative.
   */
  async diffFull(from: string, to?: string): Promise<FileDiff[]> {
    return this.locked('checkpoint diff-full', async () => {
      const fromTree = await this.requireTreeId(from);
      const toTree = to === undefined ? (await this.capture()).treeId : await this.requireTreeId(to);
      const all = await diffTrees(this.repo, fromTree, toTree);
      const kept = new Set(await this.withoutNowIgnored(all.map((r) => r.path)));
      const records = all.filter((r) => kept.has(r.path));
      const wanted = records
        .filter((r) => !r.binary)
        .flatMap((r) => [r.srcId, r.dstId])
        .filter((o) => !isNullId(o));
      const blobs = await readObjects(this.repo, wanted);
      const text = (oid: string): string => (isNullId(oid) ? '' : (blobs.get(oid)?.toString('utf8') ?? ''));
      return records.map((r) => ({
        file: r.path,
        before: r.binary ? '' : text(r.srcId),
        after: r.binary ? '' : text(r.dstId),
        additions: r.insertions,
        deletions: r.deletions,
        status: r.status === 'A' ? 'added' : r.status === 'D' ? 'deleted' : 'modified',
        binary: r.binary,
      }));
    });
  }

  /**
   * Makes the workspace match checkpoint `hash` for every path the checkpoints know: changed files
   * rewritten, files created since removed, deleted files brought back. A safety checkpoint is
   * taken first; ignored, skipped and never-captured files are not touched (see apply.ts).
   */
  async restore(hash: string): Promise<RestoreResult> {
    return this.locked('checkpoint restore', async () => {
      const target = await this.requireTreeId(hash);
      const wanted = await this.requireListing(target);
      const safety = await this.trackLocked(`safety before restore ${target.slice(0, 12)}`, 'safety', false);
      const current = await this.requireListing(safety.hash);
      const applied = await this.apply(
        planChanges(restoreDesired(wanted, current), current),
        current,
        safety.skips,
      );
      return {
        hash: target,
        safety: safety.hash,
        safetyRef: safety.ref,
        leftAlone: this.absolute(applied.leftAlone),
      };
    });
  }

  /** Undoes a restore or revert: restores its safety checkpoint. */
  async unrevert(safety: string): Promise<RestoreResult> {
    return this.restore(safety);
  }

  /**
   * Puts files back as they were in a checkpoint, after a safety checkpoint.
   * - `revert(patches)`: each file named by a patch, from the first patch naming it; a file the
   *   patch's checkpoint does not hold is deleted.
   * - `revert(hash, paths?)`: the files that differ from checkpoint `hash`, under `paths`
   *   (files or directories, absolute or workspace-relative; default: all).
   * Paths outside the workspace are refused (PATH_OUTSIDE_WORKSPACE) and unknown checkpoints
   * (CHECKPOINT_NOT_FOUND) before anything changes. The git process count does not grow with the
   * number of files: one listing per distinct checkpoint plus a fixed number of calls.
   */
  async revert(patches: readonly Patch[]): Promise<RevertResult>;
  async revert(hash: string, paths?: readonly string[]): Promise<RevertResult>;
  async revert(target: string | readonly Patch[], paths?: readonly string[]): Promise<RevertResult> {
    if (typeof target === 'string') {
      this.assertRevision(target);
      const selection =
        paths === undefined
          ? null
          : await Promise.all(paths.map((p) => toWorkspaceGitPath(this.workspace, p, this.forbidden)));
      return this.locked('checkpoint revert', async () => {
        const wanted = await this.requireListing(target);
        if (selection !== null) await this.assertKnownPaths(selection, wanted);
        return this.revertLocked((current) =>
          changedBetween(wanted, current, selection).map((p) => [p, wanted.get(p) ?? null]),
        );
      });
    }
    if (paths !== undefined)
      throw new InvalidArgumentError(
        'revert(patches) takes no separate paths: list the files in the patches',
        { details: {} },
      );
    const pairs: Array<[string, string]> = [];
    for (const patch of target) {
      this.assertRevision(patch.hash);
      for (const file of patch.files)
        pairs.push([await toWorkspaceGitPath(this.workspace, file, this.forbidden), patch.hash]);
    }
    const sources = firstPatchWins(pairs);
    return this.locked('checkpoint revert', async () => {
      const listings = new Map<string, Map<string, TreeEntry>>();
      for (const hash of new Set(target.map((p) => p.hash)))
        listings.set(hash, await this.requireListing(hash));
      return this.revertLocked(() =>
        [...sources].map(([path, hash]) => [path, listings.get(hash)?.get(path) ?? null]),
      );
    });
  }

  /** Recorded checkpoints, newest first. */
  async list(): Promise<CheckpointEntry[]> {
    if (!(await this.exists())) return [];
    const records = await listRefRecords(this.repo, [CHECKPOINT_REF_PREFIX]);
    return records.map(entryOf);
  }

  /** The checkpoints that baseline, latest and the last safety checkpoint point at. */
  async markers(): Promise<CheckpointMarkers> {
    const none: CheckpointMarkers = { baseline: null, latest: null, safety: null };
    if (!(await this.exists())) return none;
    const records = await listRefRecords(this.repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
    const find = (meta: string): CheckpointEntry | null => {
      const marker = records.find((r) => r.ref === meta);
      if (marker === undefined) return null;
      const named = records.find((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX) && r.oid === marker.oid);
      return entryOf(named ?? marker);
    };
    return { baseline: find(BASELINE_REF), latest: find(LATEST_REF), safety: find(SAFETY_REF) };
  }

  /**
   * `checkpoint gc`: retention, then git gc (see upkeep.ts). Keeps the newest `keep` checkpoints
   * plus those baseline, latest and the last safety checkpoint point at.
   */
  async gc(opts: GcOptions = {}): Promise<GcResult> {
    const keep = opts.keep ?? DEFAULT_KEEP;
    const pruneAge = opts.pruneAge ?? DEFAULT_PRUNE_AGE;
    assertRetention(keep, pruneAge);
    if (!(await this.exists())) {
      return { kept: 0, removed: 0, pruneAge, storeBytesBefore: 0, storeBytesAfter: 0 };
    }
    return this.locked('checkpoint gc', () => gcStore(this.repo, this.location, keep, pruneAge));
  }

  /** The earlier name of gc(). */
  async cleanup(opts: GcOptions = {}): Promise<GcResult> {
    return this.gc(opts);
  }

  // ---- internals ----

  private async revertLocked(
    desired: (current: ReadonlyMap<string, TreeEntry>) => Array<[string, TreeEntry | null]>,
  ): Promise<RevertResult> {
    const safety = await this.trackLocked('safety before revert', 'safety', false);
    const current = await this.requireListing(safety.hash);
    const applied = await this.apply(planChanges(desired(current), current), current, safety.skips);
    return {
      reverted: this.absolute(applied.written),
      deleted: this.absolute(applied.deleted),
      safety: safety.hash,
      safetyRef: safety.ref,
      leftAlone: this.absolute(applied.leftAlone),
    };
  }

  private apply(
    plan: ReturnType<typeof planChanges>,
    current: ReadonlyMap<string, TreeEntry>,
    skips: readonly Skip[],
  ): Promise<Applied> {
    const blocked = [...this.excluded, ...skips.map((s) => s.path)];
    return applyPlan(
      { root: this.workspace, repo: this.repo, tempDir: this.location.tempDir, current, blocked },
      plan,
    );
  }

  /** Captures the workspace as a tree (capture.ts). Caller holds the lock. */
  private capture(): Promise<Capture> {
    return captureWorkspace({
      root: this.workspace,
      repo: this.repo,
      excluded: this.excluded,
      maxFileSizeBytes: this.maxFileSizeBytes,
    });
  }

  /**
   * Every path named by a revert must be known to the checkpoint or to the workspace now
   * (PATH_NOT_FOUND otherwise), so that a typo is an error before anything changes.
   */
  private async assertKnownPaths(
    selection: readonly string[],
    wanted: ReadonlyMap<string, TreeEntry>,
  ): Promise<void> {
    const inCheckpoint = knownPaths(wanted.keys());
    const unknown = selection.filter((sel) => !inCheckpoint.has(sel));
    if (unknown.length === 0) return;
    const inWorkspace = knownPaths((await listTree(this.repo, (await this.capture()).treeId))?.keys() ?? []);
    const missing = unknown.filter((sel) => !inWorkspace.has(sel));
    if (missing.length > 0) {
      const abs = missing.map((p) => toAbsolute(this.workspace, p));
      throw new PathNotFoundError(
        `${abs.join(', ')}: neither the checkpoint nor the workspace has such a path; check the spelling (see "checkpoint patch HASH")`,
        {
          details: { paths: abs },
        },
      );
    }
  }

  private async trackLocked(
    label: string | null,
    kind: CheckpointMeta['kind'],
    baseline: boolean,
    tag: AgentTag = {},
    captured?: Capture,
  ): Promise<Tracked> {
    const { treeId, skipped } = captured ?? (await this.capture());
    const ref = await recordCheckpoint(this.repo, treeId, {
      label,
      kind,
      setBaseline: baseline || !(await this.hasBaseline()),
      tag,
    });
    this.baselineKnown = true;
    return { hash: treeId, ref, skipped: skipped.map((s) => this.skippedFile(s)), skips: skipped };
  }

  private async hasBaseline(): Promise<boolean> {
    if (!this.baselineKnown) this.baselineKnown = (await readRef(this.repo, BASELINE_REF)) !== null;
    return this.baselineKnown;
  }

  private skippedFile(s: Skip): SkippedFile {
    return { path: toAbsolute(this.workspace, s.path), reason: s.reason, size: s.size };
  }

  private absolute(paths: readonly string[]): string[] {
    return paths.map((p) => toAbsolute(this.workspace, p));
  }

  private assertRevision(hash: string): void {
    if (!isCheckpointRevision(hash)) throw this.notFound(hash);
  }

  private notFound(hash: string): CheckpointNotFoundError {
    return new CheckpointNotFoundError(
      `no checkpoint ${JSON.stringify(hash.slice(0, 80))} in the store of ${this.workspace}; see "checkpoint list"`,
      {
        details: { hash: hash.slice(0, 200), workspace: this.workspace },
      },
    );
  }

  /** The tree id a checkpoint revision (tree id, commit id, ref) names; CHECKPOINT_NOT_FOUND otherwise. */
  private async requireTreeId(rev: string): Promise<string> {
    const treeId = await resolveTreeId(this.repo, rev);
    if (treeId === null) throw this.notFound(rev);
    return treeId;
  }

  private async requireListing(hash: string): Promise<Map<string, TreeEntry>> {
    const listing = await listTree(this.repo, hash);
    if (listing === null) throw this.notFound(hash);
    return listing;
  }

  private async exists(): Promise<boolean> {
    return (await readStoredWorkspace(this.location.metaFile)) === this.workspace;
  }

  /** Runs `fn` holding the store lock, creating the store first if needed. */
  private locked<T>(purpose: string, fn: () => Promise<T>): Promise<T> {
    return withLock(this.location.lockPath, { timeoutMs: this.lockTimeoutMs, purpose }, async (lock) => {
      await repairOnAcquire(this.repo, this.location, lock.recovered !== null, this.staleIndexLockMs);
      await this.ensureStore();
      return fn();
    });
  }

  private async ensureStore(): Promise<void> {
    if (this.storeReady) return;
    if (!(await this.exists())) {
      await initCheckpointRepo(this.repo);
      await writeJsonAtomic(this.location.metaFile, {
        workspace: this.workspace,
        projectId: this.location.projectId,
        createdAt: new Date().toISOString(),
      });
    }
    await this.mirrorUserExcludes();
    this.storeReady = true;
  }

  /**
   * The repository's own info/exclude is already honoured as core.excludesFile; the user's global
   * ignore file goes into the checkpoint repository's info/exclude (rewritten when it changed), so
   * that checkpoints ignore what the user's git ignores, and nothing else of the user's config.
   */
  private async mirrorUserExcludes(): Promise<void> {
    const wanted =
      this.userExcludes === null ? '' : await readFile(this.userExcludes, 'utf8').catch(() => '');
    const target = join(this.location.gitDir, 'info', 'exclude');
    const have = await readFile(target, 'utf8').catch(() => null);
    if (have !== wanted) await writeFileAtomic(target, wanted);
  }

  /**
   * Drops paths that the ignore rules match now. A file captured at an earlier checkpoint and
   * ignored since leaves later captures; it is not reported as changed (deleted), as git does not
   * report an ignored file, and restore and revert never touch it.
   */
  private async withoutNowIgnored(paths: readonly string[]): Promise<string[]> {
    const ignored = await ignoredPaths(this.repo, paths);
    return ignored.size === 0 ? [...paths] : paths.filter((p) => !ignored.has(p));
  }
}

/**
 * One more than the highest prompt number the session's checkpoints carry (1 for a new session).
 * The caller holds the lock, so two hooks of one session never take the same number.
 */
function nextPromptOf(records: readonly RefRecord[], session: string): number {
  const numbers = records
    .filter((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX))
    .map(entryOf)
    .filter((e) => e.session === session)
    .map((e) => e.prompt ?? 0);
  return Math.max(0, ...numbers) + 1;
}

/** The real path when it exists (so that comparisons with real workspace paths hold), else the resolved one. */
async function physicalPath(path: string): Promise<string> {
  try {
    await access(path);
    return await realpath(path);
  } catch {
    return path;
  }
}
