import type { CheckpointEntry, TrackResult } from '../../types/checkpoint.js';
import type { Identity } from '../../types/config.js';
import { CheckpointsOptionsArg, WorkspaceArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import type { PromptDelivery } from './prompt-numbers.js';

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
  /**
   * `checkpoints.keep` (default 100), applied as checkpoints are made: past the newest `keep`, a
   * session's tool checkpoints that the next one of the same session covers are dropped (sessions.ts).
   */
  keep?: number;
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
  /**
   * With `beforePrompt`: the hook that delivered the prompt (its agent and event) and the prompt's
   * text. The session's newest prompt delivered again by another hook (the Copilot CLI runs Claude
   * Code's hooks too, with the same session id) is that prompt: nothing is recorded (`duplicate`).
   */
  delivery?: PromptDelivery;
  /** Record nothing when the state is the one `latest` already holds (a hook after a read-only tool). */
  unlessUnchanged?: boolean;
  /**
   * The files the session's tool says it wrote (absolute, or relative to the workspace root), on a
   * change checkpoint: the step is the session's for those only (and below them), the rest of it
   * nobody's. Paths outside the workspace are ignored; none inside, or more than 100: the whole step.
   */
  touched?: readonly string[];
  /**
   * Check every object the store's index names (two git processes) before capturing, as
   * `checkpoint track` does; else only when the store's object stamps changed. A loose object a
   * crash left empty changes none: found, it is moved aside and written again from the file.
   */
  checkObjects?: boolean;
}

/** `track`'s result, plus the prompt number it was given and what went wrong in automatic upkeep (the checkpoint stands). */
export interface TrackOutcome extends TrackResult {
  prompt?: number;
  /** With `unlessUnchanged`: nothing was recorded, `latest` already holds this state (hash and ref are its). */
  unchanged?: boolean;
  /**
   * With `delivery`: nothing was recorded, the prompt is `prompt`, which another hook delivered
   * (hash and ref: the latest checkpoint's, empty when there is none yet).
   */
  duplicate?: boolean;
  upkeepError?: unknown;
  /** The store was damaged: what was moved aside, and where (src/checkpoints/recovery.ts). */
  recovered?: string;
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

/**
 * The workspace and the options a caller of the library may give, checked as config.yaml checks its
 * own numbers (a budget of 0 would prune every checkpoint it may): INVALID_ARGUMENT naming the option.
 */
export function assertCheckpointsOptions(dir: string, opts: CheckpointsOptions): void {
  checkArgument(WorkspaceArg, dir, 'workspace');
  checkArgument(CheckpointsOptionsArg, opts, 'opts');
}
