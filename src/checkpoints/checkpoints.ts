import type {
  CheckpointEntry,
  FileDiff,
  GcResult,
  Patch,
  RestoreResult,
  RevertResult,
  SessionRestoreResult,
  StoreStatus,
  TrackResult,
} from '../../types/checkpoint.js';
import { DEFAULT_IDENTITY, DEFAULT_KEEP } from '../../types/config.js';
import * as arg from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { CheckpointNotFoundError, InvalidArgumentError } from '../errors.js';
import { decodeBytes } from '../fs/path-bytes.js';
import { countObjects, isExpiryDate } from '../git/checkpoint-repo.js';
import type { ObjectCounts } from '../git/parsers/count-objects.js';
import { listRefRecords } from '../git/refs.js';
import { diffBytesSince, diffFullBetween, patchSince } from './compare.js';
import { checkpointNamed, hashMatches, markedRecords } from './names.js';
import { claimPromptNumber, notePromptNumber, promptNumber } from './prompt-numbers.js';
import {
  BASELINE_REF,
  CHECKPOINT_REF_PREFIX,
  entryOf,
  LATEST_REF,
  markersOf,
  META_REF_PREFIX,
  type AgentTag,
  type CheckpointMeta,
} from './message.js';
import type {
  CheckpointMarkers,
  CheckpointsOptions,
  GcOptions,
  TrackOptions,
  TrackOutcome,
} from './options.js';
import type { StoreLocation } from './project-id.js';
import { restoreTo, revertPatches, revertToCheckpoint } from './restore.js';
import { assertRetention, badPruneAge, DEFAULT_PRUNE_AGE } from './retention.js';
import { CheckpointStore } from './store.js';
import { commitBytes, dropBudget, readBudget, uncountedBound } from './budget-count.js';
import { restoreSession, type SessionRestoreOptions } from './session-restore.js';
import { sameSkips, skipRecord } from './skip-rules.js';
import { touchedGitPaths } from './touched.js';
import { upkeepAfterTrack } from './track-upkeep.js';
import { gcStore, readUpkeep, storeBytes } from './upkeep.js';

export type { SessionRestoreOptions } from './session-restore.js';
export type {
  CheckpointMarkers,
  CheckpointsOptions,
  CleanupOptions,
  GcOptions,
  TrackOptions,
  TrackOutcome,
} from './options.js';

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
 * The primitives live in store.ts, the reads in compare.ts, the writes to the workspace in restore.ts.
 */
export class Checkpoints {
  /** Real path of the workspace root (the repository's top level when it is one). */
  readonly workspace: string;
  readonly location: StoreLocation;

  private constructor(private readonly store: CheckpointStore) {
    this.workspace = store.workspace;
    this.location = store.location;
  }

  /**
   * Opens (without creating) the checkpoint store of `workspace` (any directory in it). Throws
   * WORKSPACE_NOT_FOUND, or UNSAFE_WORKSPACE for `/`, a home directory, a `.git` directory, a bare
   * repository or a directory inside a git dir, or the home's own data.
   */
  static async open(workspace: string, opts: CheckpointsOptions = {}): Promise<Checkpoints> {
    return new Checkpoints(await CheckpointStore.open(workspace, opts));
  }

  /**
   * Records the current state as a new checkpoint, then keeps the store within its budget (see
   * keepWithinBudget in upkeep.ts); an upkeep failure is returned, not thrown: the checkpoint stands.
   * A damaged store's damaged part is first moved aside (recovery.ts), which `recovered` says.
   */
  async track(label?: string, opts: TrackOptions = {}): Promise<TrackOutcome> {
    checkArgument(arg.OptionalTextArg, label, 'label');
    checkArgument(arg.TrackOptionsArg, opts, 'opts');
    const store = this.store;
    // The prompt's number is taken first: a checkpoint skipped later (no lock in time) keeps it.
    const claim =
      opts.beforePrompt === true && opts.session !== undefined
        ? await claimPromptNumber(store.location.promptsDir, opts.session, opts.delivery)
        : null;
    // The same prompt delivered again by another hook: its number is the other delivery's, which records it.
    if (claim?.duplicate === true) {
      const latest = (await this.markers()).latest;
      return {
        hash: latest?.hash ?? '',
        ref: latest?.ref ?? '',
        skipped: [],
        prompt: claim.n,
        duplicate: true,
      };
    }
    const claimed = claim?.n ?? null;
    const outcome = await store.locked('checkpoint track', 'track', () =>
      this.trackLocked(label, opts, claimed).catch(async (error: unknown) => {
        // A track that failed may have written objects that no bound covers: the next track counts.
        await dropBudget(store.location).catch(() => undefined);
        throw error;
      }),
    );
    const recovered = store.recovered;
    store.recovered = null;
    return recovered === null ? outcome : { ...outcome, recovered };
  }

  /** track() once the lock is held. */
  private async trackLocked(
    label: string | undefined,
    opts: TrackOptions,
    claimed: number | null,
  ): Promise<TrackOutcome> {
    const store = this.store;
    // One read of the refs (the markers; the checkpoints too when a prompt is numbered) gives the
    // prompt number, latest's tree and whether there is a baseline. It does not touch what the
    // capture writes (the index, objects), so it runs beside it: an agent hook feels every process.
    // The capture is started first: each spawn holds up the next, and its listing leads the
    // longest chain of processes.
    const numbered = opts.beforePrompt === true && opts.session !== undefined;
    const role = roleOf(opts);
    const capturing = store.capture({ forTrack: true, checkObjects: opts.checkObjects === true });
    const reading = listRefRecords(
      store.repo,
      numbered ? [CHECKPOINT_REF_PREFIX, META_REF_PREFIX] : [META_REF_PREFIX],
    );
    // The paths a tool named are placed beside the capture, with file-system calls only.
    const touching =
      role === 'change' && opts.touched !== undefined
        ? touchedGitPaths(store.workspace, store.forbidden, opts.touched)
        : undefined;
    // A failed read waits for the capture: a retry (locked(), recovery.ts) captures into the same index.
    const [records, captured, budget, touched] = await Promise.all([
      reading,
      capturing,
      readBudget(store.location),
      touching,
    ]).catch(async (error: unknown) => {
      await capturing.catch(() => undefined);
      throw error;
    });
    if (records.some((r) => r.ref === BASELINE_REF)) store.baselineKnown = true;
    const latest = records.find((r) => r.ref === LATEST_REF);
    const prompt = numbered ? promptNumber(records, opts.session as string, claimed) : undefined;
    // A store whose checkpoints were numbered before claims were kept: the claims continue from it.
    if (prompt !== undefined && prompt !== claimed)
      await notePromptNumber(store.location.promptsDir, opts.session as string, prompt);
    const skips = skipRecord(captured.skipped);
    // Unchanged: latest's tree, with the same paths skipped (a file grown past the limit is news to a restore).
    if (opts.unlessUnchanged && captured.treeId === latest?.tree && sameSkips(latest, skips)) {
      const ref = (await this.markers()).latest?.ref ?? LATEST_REF;
      const skipped = captured.skipped.map((s) => store.skippedFile(s));
      return { hash: captured.treeId, ref, skipped, unchanged: true };
    }
    // Whether the budget's count may be left out (budget-count.ts): then the commit carries the bound.
    const owned: AgentTag = {
      ...(opts.session === undefined ? {} : { session: opts.session }),
      ...(opts.event === undefined ? {} : { event: opts.event }),
      ...(prompt === undefined ? {} : { prompt }),
      ...(role === undefined ? {} : { role }),
      ...(touched === undefined ? {} : { touched }),
    };
    const tagged: AgentTag = { ...owned, ...store.placeAfter(latest, 'track', owned) };
    const uncounted = await uncountedBound({
      budget,
      latest,
      staged: captured.staged,
      repo: store.repo,
      maxStoreBytes: store.maxStoreBytes,
      commitBytes: commitBytes(
        { label: label ?? null, createdAt: new Date().toISOString(), kind: 'track', ...tagged, ...skips },
        store.repo.identity ?? DEFAULT_IDENTITY,
      ),
    });
    const tag: AgentTag = { ...tagged, ...(uncounted === null ? {} : { uncounted }) };
    const tracking = store.trackLocked(
      label ?? null,
      'track',
      opts.baseline === true,
      tag,
      captured,
      records,
    );
    tracking.catch(() => undefined);
    // The budget's count runs beside commit-tree and update-ref: the capture has written every
    // object but the commit, which is then added by its own size (an upper bound if the count saw
    // it too). One step fewer for an agent hook, which feels every process. It is started once
    // commit-tree has been (setImmediate runs after the microtasks that lead to its spawn): a
    // spawn blocks this thread for a while, and commit-tree leads the longer chain.
    let counting: Promise<ObjectCounts> | null = null;
    if (uncounted === null) {
      await new Promise((resolve) => setImmediate(resolve));
      counting = countObjects(store.repo);
      counting.catch(() => undefined);
    }
    const t = await tracking.catch(async (error: unknown) => {
      await counting?.catch(() => undefined);
      throw error;
    });
    await store.saveProbe();
    const upkeepError = await upkeepAfterTrack(store, role !== 'change', counting, t.commit);
    return {
      hash: t.hash,
      ref: t.ref,
      skipped: t.skipped,
      ...(prompt === undefined ? {} : { prompt }),
      ...(upkeepError === undefined ? {} : { upkeepError }),
    };
  }

  /**
   * The checkpoint taken just before the `prompt`-th prompt of `session` (default: the session of
   * the newest checkpoint an agent hook took). CHECKPOINT_NOT_FOUND when there is none.
   */
  async beforePrompt(prompt: number, session?: string): Promise<CheckpointEntry> {
    // Prompts are numbered from 1; a session id is never empty (an empty --session named none).
    checkArgument(arg.PromptNumberArg, prompt, 'prompt');
    checkArgument(arg.OptionalTextArg, session, 'session');
    if (session === '')
      throw new InvalidArgumentError('a session id must not be empty; "checkpoint list" shows them', {
        details: { session, argument: 'session' },
      });
    const entries = await this.list();
    // A restore's record is not a hook's: the latest session is the one whose hook ran last.
    const chosen = session ?? entries.find((e) => e.session !== undefined && e.role !== 'restore')?.session;
    const hit = entries.find((e) => e.session === chosen && e.prompt === prompt);
    if (hit !== undefined) return hit;
    const which =
      chosen === undefined
        ? 'no agent session has checkpoints'
        : entries.some((e) => e.session === chosen)
          ? `session ${chosen}`
          : `no session ${chosen} in this workspace's checkpoints`;
    throw new CheckpointNotFoundError(
      `no checkpoint before prompt ${prompt} (${which}); it may not exist or was pruned to fit the store's budget; see "checkpoint list"`,
      { details: { prompt, session: chosen ?? null, workspace: this.workspace } },
    );
  }

  /**
   * `checkpoint restore --prompt N [--session ID]`: puts back only the files `session` (default:
   * the latest session) changed after its prompt N, leaving alone (and reporting) those another
   * session or a person changed since, unless `force`; see session-restore.ts.
   */
  async restorePrompt(
    prompt: number,
    session?: string,
    opts: SessionRestoreOptions = {},
  ): Promise<SessionRestoreResult> {
    checkArgument(arg.SessionRestoreOptionsArg, opts, 'opts');
    const from = await this.beforePrompt(prompt, session);
    return restoreSession(this.store, { ...from, session: from.session ?? '', prompt }, opts);
  }

  /** The store's size against its budget, its checkpoints and objects, and what automatic upkeep pruned. */
  async status(): Promise<StoreStatus> {
    const store = this.store;
    const upkeep = await readUpkeep(store.location);
    const base = { workspace: this.workspace, budgetBytes: store.maxStoreBytes, ...upkeep };
    if (!(await store.exists())) return { ...base, storeBytes: 0, checkpoints: 0, looseObjects: 0, packs: 0 };
    const checkpoints = (await this.list()).length;
    const counts = await countObjects(store.repo);
    return {
      ...base,
      storeBytes: await storeBytes(store.repo, counts),
      checkpoints,
      looseObjects: counts.loose,
      packs: counts.packs,
    };
  }

  /** Starts a session: records a checkpoint and makes it the baseline. */
  async startSession(label?: string): Promise<TrackResult> {
    return this.track(label, { baseline: true });
  }

  /**
   * Files changed since checkpoint `hash`, as absolute paths (the current state is captured first,
   * without a checkpoint). Here and wherever a checkpoint is taken, `hash` may also be a label or
   * latest, baseline or safety (names.ts).
   */
  async patch(hash: string): Promise<Patch> {
    return patchSince(this.store, await this.hashOf(hash, 'hash'));
  }

  /**
   * Unified diff (binary-safe, applicable with `git apply`) from checkpoint `hash` to the current
   * state, byte for byte as git wrote it.
   */
  async diffBytes(hash: string): Promise<Buffer> {
    return diffBytesSince(this.store, await this.hashOf(hash, 'hash'));
  }

  /** diffBytes as a string, decoded losslessly: bytes that are not UTF-8 become U+DC80..U+DCFF (fs/path-bytes.ts). */
  async diff(hash: string): Promise<string> {
    return decodeBytes(await this.diffBytes(hash));
  }

  /** Per-file before/after contents between two checkpoints (`to` defaults to the current state); see compare.ts. */
  async diffFull(from: string, to?: string): Promise<FileDiff[]> {
    checkArgument(arg.OptionalTextArg, to, 'to');
    const fromHash = await this.hashOf(from, 'from');
    return diffFullBetween(this.store, fromHash, to === undefined ? to : await this.hashOf(to, 'to'));
  }

  /**
   * Makes the workspace match checkpoint `hash` for every path the checkpoints know: changed files
   * rewritten, files created since removed, deleted files brought back. A safety checkpoint is
   * taken first; ignored, skipped and never-captured files are not touched (see apply.ts).
   */
  async restore(hash: string): Promise<RestoreResult> {
    return restoreTo(this.store, await this.hashOf(hash, 'hash'));
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
    checkArgument(arg.PathsArg, paths, 'paths');
    return typeof target === 'string'
      ? revertToCheckpoint(this.store, await this.hashOf(target, 'hash'), paths)
      : revertPatches(this.store, checkArgument(arg.PatchesArg, target, 'target'), paths);
  }

  /** Recorded checkpoints, newest first. */
  async list(): Promise<CheckpointEntry[]> {
    if (!(await this.store.exists())) return [];
    const records = await this.store.reading(() => listRefRecords(this.store.repo, [CHECKPOINT_REF_PREFIX]));
    return records.map(entryOf);
  }

  /**
   * How many recorded checkpoints `rev` names as a HASH does (its tree or commit id, whole or
   * abbreviated, or its ref): a caller that also takes labels lets one such match win over a label.
   */
  async named(rev: string): Promise<number> {
    checkArgument(arg.TextArg, rev, 'rev');
    return hashMatches(await markedRecords(this.store), rev);
  }

  /** A checkpoint's name (hash, label or marker: names.ts) as the hash the store takes, checked as `argument`. */
  private async hashOf(name: string, argument: string): Promise<string> {
    return checkpointNamed(this.store, checkArgument(arg.TextArg, name, argument));
  }

  /** The checkpoints that baseline, latest and the last safety checkpoint point at. */
  async markers(): Promise<CheckpointMarkers> {
    return markersOf(await markedRecords(this.store));
  }

  /**
   * `checkpoint gc`: retention, then git gc (see upkeep.ts). Keeps the newest `keep` checkpoints
   * plus those baseline, latest and the last safety checkpoint point at.
   */
  async gc(opts: GcOptions = {}): Promise<GcResult> {
    checkArgument(arg.GcOptionsArg, opts, 'opts');
    const keep = opts.keep ?? DEFAULT_KEEP;
    const pruneAge = opts.pruneAge ?? DEFAULT_PRUNE_AGE;
    assertRetention(keep, pruneAge);
    // Asked of git before any checkpoint is dropped (gc would refuse it only after retention), and
    // whether or not there is a store yet, so that an age is refused the same way in both cases.
    if (!(await isExpiryDate(this.store.repo, pruneAge))) throw badPruneAge(pruneAge);
    if (!(await this.store.exists())) {
      return { kept: 0, removed: 0, pruneAge, storeBytesBefore: 0, storeBytesAfter: 0 };
    }
    return this.store.locked('checkpoint gc', 'existing', async () => {
      // gc repacks: the budget's count no longer holds (budget-count.ts).
      await dropBudget(this.store.location);
      return gcStore(this.store.repo, this.store.location, keep, pruneAge);
    });
  }

  /** The earlier name of gc(). */
  async cleanup(opts: GcOptions = {}): Promise<GcResult> {
    return this.gc(opts);
  }
}

/** What a track is to its session: set only on a session's checkpoints (sessions.ts reads it). */
function roleOf(opts: TrackOptions): CheckpointMeta['role'] {
  if (opts.session === undefined) return undefined;
  if (opts.baseline) return 'baseline';
  return opts.beforePrompt ? 'prompt' : 'change';
}
