import * as z from './zod.js';
import { deferred } from './zod.js';
import { DurationMs } from './duration.js';
import { OBJECT_ID_PATTERN } from './ids.js';

/** Safe characters for anything that becomes a file or ref name (no path traversal, no option look-alikes). */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const SafeId = deferred(() =>
  z.string().check(
    z.regex(SAFE_ID, 'use 1-128 characters from A-Z a-z 0-9 . _ - starting with a letter or digit'),
    z.refine(
      (s) => !s.includes('..') && !s.endsWith('.lock') && !s.endsWith('.'),
      'must not contain ".." or end with "." or ".lock"',
    ),
  ),
);

export const Sha = deferred(() =>
  z.string().check(z.regex(OBJECT_ID_PATTERN, 'a full hexadecimal object id')),
);
export const IsoDate = deferred(() => z.iso.datetime({ offset: true }));

export const HeadState = deferred(() => z.enum(['branch', 'detached', 'unborn']));
export type HeadState = z.infer<typeof HeadState>;

/**
 * A path the capture did not stage (a FIFO or socket where a file was, a file it may not read, a
 * file marked assume-unchanged or skip-worktree whose change git does not look at, a repository
 * nested in the workspace with no commit checked out, a submodule not checked out whose directory
 * holds something or one with work not committed inside it, a name git refuses to record such as `.GIT`): left as the index had it.
 */
export const SkippedPath = deferred(() =>
  z.object({
    path: z.string().check(z.minLength(1)),
    reason: z.enum([
      'special-file',
      'unreadable',
      'not-compared',
      'nested-repository',
      'submodule-not-checked-out',
      'submodule-modified',
      'invalid-path',
    ]),
  }),
);
export type SkippedPath = z.infer<typeof SkippedPath>;

export const BeforeState = deferred(() =>
  z.object({
    sha: Sha,
    branch: z.string().check(z.minLength(1)),
    isDirty: z.boolean(),
    wipSha: z.nullable(Sha),
    capturedAt: IsoDate,
    runId: SafeId,
    headState: HeadState,
    /** With `before --init`: repositories found nested in the directory, left out of the first commit (and of later ones, through info/exclude). */
    nestedRepositories: z.optional(z.array(z.string())),
    /** Paths the WIP commit could not take. */
    skipped: z.optional(z.array(SkippedPath)),
  }),
);
export type BeforeState = z.infer<typeof BeforeState>;

export const FileStatus = deferred(() =>
  z.enum(['added', 'modified', 'deleted', 'renamed', 'copied', 'typechange']),
);
export type FileStatus = z.infer<typeof FileStatus>;

export const FileChange = deferred(() =>
  z.object({
    path: z.string().check(z.minLength(1)),
    oldPath: z.nullable(z.string().check(z.minLength(1))),
    status: FileStatus,
    insertions: z.int().check(z.nonnegative()),
    deletions: z.int().check(z.nonnegative()),
    binary: z.boolean(),
  }),
);
export type FileChange = z.infer<typeof FileChange>;

export const DiffStats = deferred(() =>
  z.object({
    filesChanged: z.int().check(z.nonnegative()),
    insertions: z.int().check(z.nonnegative()),
    deletions: z.int().check(z.nonnegative()),
    files: z.array(FileChange),
  }),
);
export type DiffStats = z.infer<typeof DiffStats>;

export const CommitInfo = deferred(() =>
  z.object({
    sha: Sha,
    message: z.string(),
    author: z.string(),
    date: IsoDate,
    parents: z.array(Sha),
  }),
);
export type CommitInfo = z.infer<typeof CommitInfo>;

/** How the agent command under `iterate` ended: exit status (null when a signal ended it), signal and duration. */
export const AgentOutcome = deferred(() =>
  z.object({
    exitCode: z.nullable(z.int()),
    signal: z.nullable(z.string()),
    durationMs: DurationMs,
  }),
);
export type AgentOutcome = z.infer<typeof AgentOutcome>;

/**
 * A snapshot's id: a safe id that no one can take for a commit (CONTRACT.md: never the bare SHA).
 * An id of hex digits alone would shadow the snapshot whose after SHA it spells (`show <sha>`).
 */
export const SnapshotId = deferred(() =>
  SafeId.check(z.refine((s) => !/^[0-9a-f]{4,64}$/i.test(s), 'must not be hex digits alone (a commit id)')),
);

export const Snapshot = deferred(() =>
  z.object({
    id: SnapshotId,
    runId: SafeId,
    iteration: z.int().check(z.nonnegative()),
    beforeSha: Sha,
    afterSha: Sha,
    branch: z.string().check(z.minLength(1)),
    commitMessage: z.string(),
    patchPath: z.nullable(z.string()),
    patchSha256: z.nullable(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
    filesChanged: z.int().check(z.nonnegative()),
    insertions: z.int().check(z.nonnegative()),
    deletions: z.int().check(z.nonnegative()),
    createdAt: IsoDate,
    files: z.array(FileChange),
    workspace: z.string().check(z.minLength(1)),
    ref: z.nullable(z.string()),
    /** The whole task prompt and the gate plan source given to `after` (the commit message keeps the task's first 100 characters). */
    task: z.optional(z.nullable(z.string())),
    /** Paths the iteration's commit could not take (left as they were). */
    skipped: z.optional(z.array(SkippedPath)),
    gate: z.optional(z.nullable(z.string())),
    /** For a snapshot rebuilt from a fetched or imported record: the workspace where it was recorded (`workspace` is the one on this machine). */
    recordedWorkspace: z.optional(z.string().check(z.minLength(1))),
    /** Set by `iterate`: how the agent command it ran between before and after ended. */
    agent: z.optional(AgentOutcome),
  }),
);
export type Snapshot = z.infer<typeof Snapshot>;
