/**
 * Every failure a user can cause or meet is an AgentgateError with a stable `code`.
 * Callers (and tests) branch on `code`; messages are for people and say what to do next.
 */
export abstract class AgentgateError extends Error {
  abstract readonly code: string;
  /** Exit status the CLI uses: 2 for usage errors, 3 for a check that ran and failed, 1 for everything else. */
  readonly exitCode: 1 | 2 | 3 = 1;
  readonly details: Record<string, unknown>;

  constructor(message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details ?? {};
  }

  toJSON(): { code: string; message: string; details?: Record<string, unknown> } {
    const hasDetails = Object.keys(this.details).length > 0;
    return { code: this.code, message: this.message, ...(hasDetails ? { details: this.details } : {}) };
  }
}

export class UsageError extends AgentgateError {
  readonly code = 'USAGE' as const;
  override readonly exitCode = 2 as const;
}
export class InvalidIdError extends AgentgateError {
  readonly code = 'INVALID_ID' as const;
}
export class InvalidArgumentError extends AgentgateError {
  readonly code = 'INVALID_ARGUMENT' as const;
  override readonly exitCode = 2 as const;
}
export class SnapshotNotFoundError extends AgentgateError {
  readonly code = 'SNAPSHOT_NOT_FOUND' as const;
}
export class AmbiguousIdError extends AgentgateError {
  readonly code = 'AMBIGUOUS_ID' as const;
}
export class RunNotFoundError extends AgentgateError {
  readonly code = 'RUN_NOT_FOUND' as const;
}
/** `before` where HEAD does not build on the run's last iteration and no restart was declared. */
export class RunDivergedError extends AgentgateError {
  readonly code = 'RUN_DIVERGED' as const;
}
export class RevisionNotFoundError extends AgentgateError {
  readonly code = 'REVISION_NOT_FOUND' as const;
}
export class WorkspaceNotFoundError extends AgentgateError {
  readonly code = 'WORKSPACE_NOT_FOUND' as const;
}
export class NotARepositoryError extends AgentgateError {
  readonly code = 'NOT_A_REPOSITORY' as const;
}
export class UnsafeWorkspaceError extends AgentgateError {
  readonly code = 'UNSAFE_WORKSPACE' as const;
}
export class PathOutsideWorkspaceError extends AgentgateError {
  readonly code = 'PATH_OUTSIDE_WORKSPACE' as const;
}
export class UnmergedPathsError extends AgentgateError {
  readonly code = 'UNMERGED_PATHS' as const;
}
export class OperationInProgressError extends AgentgateError {
  readonly code = 'OPERATION_IN_PROGRESS' as const;
}
export class DirtyWorkspaceError extends AgentgateError {
  readonly code = 'DIRTY_WORKSPACE' as const;
}
export class IterationExistsError extends AgentgateError {
  readonly code = 'ITERATION_EXISTS' as const;
}
export class HistoryRewrittenError extends AgentgateError {
  readonly code = 'HISTORY_REWRITTEN' as const;
}
/** `before --branch`: the branch exists at another commit than HEAD, so switching to it would need a checkout. */
export class BranchExistsError extends AgentgateError {
  readonly code = 'BRANCH_EXISTS' as const;
}
export class ConcurrentUpdateError extends AgentgateError {
  readonly code = 'CONCURRENT_UPDATE' as const;
}
export class CherryPickConflictError extends AgentgateError {
  readonly code = 'CHERRY_PICK_CONFLICT' as const;
}
export class EmptySnapshotError extends AgentgateError {
  readonly code = 'EMPTY_SNAPSHOT' as const;
}
export class StoreCorruptError extends AgentgateError {
  readonly code = 'STORE_CORRUPT' as const;
}
export class WriteFailedError extends AgentgateError {
  readonly code = 'WRITE_FAILED' as const;
}
export class LockTimeoutError extends AgentgateError {
  readonly code = 'LOCK_TIMEOUT' as const;
}
export class ConfigInvalidError extends AgentgateError {
  readonly code = 'CONFIG_INVALID' as const;
}
export class CheckpointNotFoundError extends AgentgateError {
  readonly code = 'CHECKPOINT_NOT_FOUND' as const;
}
/** `checkpoint restore --prompt N`: files another session or a person changed since the session last did were left alone. */
export class RestoreConflictError extends AgentgateError {
  readonly code = 'RESTORE_CONFLICT' as const;
  override readonly exitCode = 3 as const;
}
export class GitNotFoundError extends AgentgateError {
  readonly code = 'GIT_NOT_FOUND' as const;
}
export class GitTimeoutError extends AgentgateError {
  readonly code = 'GIT_TIMEOUT' as const;
}
export class GitFailedError extends AgentgateError {
  readonly code = 'GIT_FAILED' as const;
}

export class CiEnvironmentError extends AgentgateError {
  readonly code = 'CI_ENV_MISSING' as const;
}

/** A request line to `serve` that is not one JSON request (malformed, too long, wrong fields). */
export class InvalidRequestError extends AgentgateError {
  readonly code = 'INVALID_REQUEST' as const;
  override readonly exitCode = 2 as const;
}

// Runs that travel (src/sharing): remotes and bundles.
export class RemoteNotFoundError extends AgentgateError {
  readonly code = 'REMOTE_NOT_FOUND' as const;
}
export class PushRejectedError extends AgentgateError {
  readonly code = 'PUSH_REJECTED' as const;
}
export class BundleInvalidError extends AgentgateError {
  readonly code = 'BUNDLE_INVALID' as const;
}
export class UnsafeRemoteError extends AgentgateError {
  readonly code = 'REMOTE_UNSAFE' as const;
}

// What git itself reports, given codes of their own (src/git/runner.ts classifies git's stderr).
export class DiskFullError extends AgentgateError {
  readonly code = 'DISK_FULL' as const;
}
export class UnsafeRepositoryOwnerError extends AgentgateError {
  readonly code = 'UNSAFE_REPOSITORY_OWNER' as const;
}
export class IndexLockedError extends AgentgateError {
  readonly code = 'INDEX_LOCKED' as const;
}
export class ObjectMissingError extends AgentgateError {
  readonly code = 'OBJECT_MISSING' as const;
}
export class LfsUnsupportedError extends AgentgateError {
  readonly code = 'LFS_UNSUPPORTED' as const;
}
/** An encrypting filter (git-crypt, transcrypt) that our git never runs: its secrets would be committed as plaintext. */
export class FilterUnsupportedError extends AgentgateError {
  readonly code = 'FILTER_UNSUPPORTED' as const;
}

// Records that would say something untrue are refused.
export class RunWorkspaceMismatchError extends AgentgateError {
  readonly code = 'RUN_WORKSPACE_MISMATCH' as const;
}
export class NoBeforeStateError extends AgentgateError {
  readonly code = 'NO_BEFORE_STATE' as const;
}
export class IterationOutOfOrderError extends AgentgateError {
  readonly code = 'ITERATION_OUT_OF_ORDER' as const;
}
export class NothingToVerifyError extends AgentgateError {
  readonly code = 'NOTHING_TO_VERIFY' as const;
}

export function isAgentgateError(value: unknown): value is AgentgateError {
  return value instanceof AgentgateError;
}

/** `gate` without --isolated: the workspace is dirty or HEAD is not the iteration's after commit. */
export class GateTreeMismatchError extends AgentgateError {
  readonly code = 'GATE_TREE_MISMATCH' as const;
}
/** The gate's command could not be started (not found, not executable). */
export class GateCommandNotFoundError extends AgentgateError {
  readonly code = 'GATE_COMMAND_NOT_FOUND' as const;
}
/** The gate's command ran past --timeout; its whole process group was killed. */
export class GateTimeoutError extends AgentgateError {
  readonly code = 'GATE_TIMEOUT' as const;
}
/** A JUnit file is missing, unreadable, not XML, or not a JUnit report. */
export class JunitInvalidError extends AgentgateError {
  readonly code = 'JUNIT_INVALID' as const;
}
/** A text that is not a JUnit report (`parseJunit`); the caller adds which file. */
export class JunitParseError extends JunitInvalidError {}
/** `gate replay` without --yes: it would run a command that may come from another machine. */
export class ReplayNotConfirmedError extends AgentgateError {
  readonly code = 'REPLAY_NOT_CONFIRMED' as const;
}
/** The run has no snapshot for the iteration asked for. */
export class IterationNotFoundError extends AgentgateError {
  readonly code = 'ITERATION_NOT_FOUND' as const;
}
/** No recorded gate verdict matches (run, iteration, name, attempt). */
export class GateNotFoundError extends AgentgateError {
  readonly code = 'GATE_NOT_FOUND' as const;
}
/** `gate replay` of a verdict that has no command (one given to `gate record`). */
export class GateNotReplayableError extends AgentgateError {
  readonly code = 'GATE_NOT_REPLAYABLE' as const;
}
/** git printed something its documented output format does not allow (a git bug or an unsupported version). */
export class GitOutputUnparseableError extends AgentgateError {
  readonly code = 'GIT_OUTPUT_UNPARSEABLE' as const;
}
/** A path the user named is known neither to the checkpoint nor to the workspace. */
export class PathNotFoundError extends AgentgateError {
  readonly code = 'PATH_NOT_FOUND' as const;
}
/** git's output would pass a bound we set (a patch regenerated from a record received from elsewhere). */
export class OutputTooLargeError extends AgentgateError {
  readonly code = 'OUTPUT_TOO_LARGE' as const;
}
/** The agent command given to `iterate` could not be started (not found, not executable). */
export class AgentNotStartedError extends AgentgateError {
  readonly code = 'AGENT_NOT_STARTED' as const;
}
/** `iterate` found the before state that a killed `iterate` of the run recorded, with no snapshot: finish it with `after`. */
export class IterationInterruptedError extends AgentgateError {
  readonly code = 'ITERATION_INTERRUPTED' as const;
}
/** The repository already holds this iteration of a run with this id, recorded by another home or machine. */
export class RunIdTakenError extends AgentgateError {
  readonly code = 'RUN_ID_TAKEN' as const;
}

/** An agent's own config file (hook install) cannot be parsed or has a shape we cannot merge into. */
export class AgentConfigInvalidError extends AgentgateError {
  readonly code = 'AGENT_CONFIG_INVALID' as const;
}

// Provenance after merge (src/provenance).
/** `verify --anchor REV` of a commit that has no recorded anchor. */
export class AnchorNotFoundError extends AgentgateError {
  readonly code = 'ANCHOR_NOT_FOUND' as const;
}
/** `attest --commit REV` where REV's tree is no iteration's after tree: a verdict holds only for the tree it judged. */
export class CommitNotGatedError extends AgentgateError {
  readonly code = 'COMMIT_NOT_GATED' as const;
  override readonly exitCode = 3 as const;
}
