/**
 * The shapes of the library's public arguments (src/index.ts), checked at each entry point by
 * `checkArgument` (src/arguments.ts) so that a JavaScript caller's wrong type is INVALID_ARGUMENT,
 * not a TypeError from deep inside. They check types and shapes only: what a value may say (a safe
 * id, a revision git knows) is still checked where it is used, with its own code.
 */
import * as z from './zod.js';
import { deferred } from './zod.js';
import { Identity, OnDirty } from './config.js';
import { DurationMs, TimeoutMs } from './duration.js';
import { HOOK_AGENTS } from './hook-agents.js';
import { HookOutcome } from './hooks.js';
import { ReportFormat } from './report-format.js';

/** A directory setting (home, artifacts directory): an empty one would be the working directory. */
const DirSetting = deferred(() => z.string().check(z.minLength(1, 'must not be empty')));

/** An explicit agentgate home, or none (then $AGENTGATE_HOME, else ~/.agentgate). */
export const HomeArg = deferred(() => z.optional(DirSetting));

/** A workspace, or any directory a call works in: an empty one would be the working directory too. */
export const WorkspaceArg = DirSetting;
/** A file to write or read: an empty path names none. */
export const FileArg = DirSetting;

/** An iteration number, as snapshots record it. */
const IterationNumber = deferred(() => z.int().check(z.nonnegative()));

/** A count a store setting takes (config.yaml's `checkpoints.*`). */
const PositiveCount = () => z.int().check(z.positive());

/** A workspace, an id, a revision, a checkpoint's hash: any text (what it says is checked where it is used). */
export const TextArg = deferred(() => z.string());
export const OptionalTextArg = deferred(() => optionalText());
export const TextsArg = deferred(() => strings());

const strings = () => z.array(z.string());
/**
 * Environment variables (`process.env` itself, say): an object. A record schema would refuse
 * process.env, which is no plain object; what each value says is read where it is used.
 */
const environment = () =>
  z.custom<NodeJS.ProcessEnv>((e) => typeof e === 'object' && e !== null && !Array.isArray(e), {
    error: 'expected an object of environment variables',
  });
const optionalText = () => z.optional(z.string());
const optionalFlag = () => z.optional(z.boolean());
/** An options object, which may be left out. */
const options = <T extends z.ZodMiniType>(schema: T) => z.optional(schema);

export const SnapshotterOptionsArg = deferred(() =>
  z.object({
    home: DirSetting,
    artifactsDir: DirSetting,
    identity: Identity,
    gitTimeoutMs: TimeoutMs,
    lockTimeoutMs: TimeoutMs,
    onDirty: OnDirty,
    localWorkspace: optionalText(),
  }),
);

/** A Snapshotter, as `Gates`, the report and provenance take it: anything without its options will not do. */
const snapshotterOptions = () => z.object({ home: z.string(), artifactsDir: z.string() });
export const SnapshotterArg = deferred(() => z.object({ options: snapshotterOptions() }));

/** A function the library calls back (`streamPatch`'s consume). */
export const FunctionArg = deferred(() =>
  z.custom<unknown>((f) => typeof f === 'function', { error: 'expected a function' }),
);

/** A time, as the report and anchors take "now". */
const optionalDate = () => z.optional(z.instanceof(Date));

const beforeFields = () => ({
  runId: z.string(),
  onDirty: z.optional(OnDirty),
  init: optionalFlag(),
  branch: optionalText(),
  restartFrom: z.optional(IterationNumber),
});

const afterFields = () => ({
  runId: z.string(),
  iteration: IterationNumber,
  taskPrompt: optionalText(),
  gatePlanSource: optionalText(),
  beforeSha: optionalText(),
});

export const BeforeOptionsArg = deferred(() => z.object(beforeFields()));
export const AfterOptionsArg = deferred(() => z.object(afterFields()));
/** The before state `after` is given (what `captureBeforeState` returned), or none. */
export const BeforeStateArg = deferred(() =>
  z.nullish(z.object({ sha: z.string(), branch: z.string(), wipSha: z.nullable(z.string()) })),
);
/**
 * The agent's argv: a program to start (an empty name names none: refused before the before state
 * is recorded, as `gate` refuses it), and no NUL byte, which no process argument can hold (Node
 * would throw its own TypeError once the before state was recorded).
 */
const agentArgv = () =>
  z.array(z.string().check(z.refine((word) => !word.includes('\0'), 'must not hold a NUL byte'))).check(
    z.minLength(1, 'must name the agent command'),
    z.refine((argv) => argv[0] !== '', 'must name the agent command'),
  );

export const IterateOptionsArg = deferred(() =>
  z.object({
    ...beforeFields(),
    ...afterFields(),
    agent: z.object({ argv: agentArgv(), stdoutToStderr: optionalFlag() }),
  }),
);

/** A snapshot as the store gives it (only what names it is checked: it came from this library). */
export const SnapshotArg = deferred(() =>
  z.object({ id: z.string(), runId: z.string(), iteration: z.number(), afterSha: z.string() }),
);

/** What `verify` checks: exactly one of one snapshot, one run or the whole store. */
export const VerifyTargetArg = deferred(() =>
  z.union(
    [
      z.strictObject({ id: z.string() }),
      z.strictObject({ runId: z.string() }),
      z.strictObject({ all: z.literal(true) }),
    ],
    { error: 'give exactly one of { id }, { runId } or { all: true }' },
  ),
);

export const GetSnapshotOptionsArg = deferred(() => options(z.object({ exact: optionalFlag() })));
export const ListByRunOptionsArg = deferred(() => options(z.object({ loadable: optionalFlag() })));
export const CherryPickOptionsArg = deferred(() => options(z.object({ onto: optionalText() })));

/** Where a gate's check echoes its output: two writable streams. */
const echo = () =>
  z.optional(
    z.object({
      stdout: z.custom<unknown>((s) => typeof (s as { write?: unknown } | null)?.write === 'function'),
      stderr: z.custom<unknown>((s) => typeof (s as { write?: unknown } | null)?.write === 'function'),
    }),
  );

/**
 * The signals a process can catch, to pass on to a check: SIGKILL and SIGSTOP cannot be (Node
 * throws EINVAL once the check has started), and a name that is no signal is never received.
 */
const FORWARDABLE_SIGNALS = [
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGIOT',
  'SIGBUS',
  'SIGFPE',
  'SIGUSR1',
  'SIGSEGV',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
  'SIGCHLD',
  'SIGSTKFLT',
  'SIGCONT',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGURG',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGVTALRM',
  'SIGPROF',
  'SIGWINCH',
  'SIGIO',
  'SIGPOLL',
  'SIGPWR',
  'SIGSYS',
  'SIGINFO',
  'SIGEMT',
  'SIGLOST',
] as const;

const gateOutputFields = () => ({
  echo: echo(),
  stdoutToStderr: optionalFlag(),
  forwardSignals: z.optional(z.array(z.enum(FORWARDABLE_SIGNALS))),
});

/** `--min-tests`: a count of tests, from 0. */
const MinTests = () => z.int().check(z.nonnegative());
/** An exit code a caller observed: the range `gate record --exit-code` takes (the command line's, 0 to 999999999). */
const ExitCode = () => z.int().check(z.nonnegative(), z.lte(999_999_999));

export const GateRunOptionsArg = deferred(() =>
  z.object({
    runId: z.string(),
    iteration: z.optional(IterationNumber),
    name: z.string(),
    command: strings(),
    junit: z.optional(strings()),
    timeoutMs: z.optional(TimeoutMs),
    isolated: optionalFlag(),
    minTests: z.optional(MinTests()),
    ...gateOutputFields(),
  }),
);

export const GateRecordOptionsArg = deferred(() =>
  z.object({
    runId: z.string(),
    iteration: z.optional(IterationNumber),
    name: z.string(),
    exitCode: ExitCode(),
    junit: z.optional(strings()),
    logFile: optionalText(),
    durationMs: z.optional(DurationMs),
    minTests: z.optional(MinTests()),
  }),
);

export const GateReplayOptionsArg = deferred(() =>
  z.object({
    runId: z.string(),
    iteration: z.optional(IterationNumber),
    name: optionalText(),
    attempt: z.optional(z.int().check(z.positive())),
    id: optionalText(),
    confirmed: optionalFlag(),
    ...gateOutputFields(),
  }),
);

export const GateListFilterArg = deferred(() =>
  options(z.object({ runId: optionalText(), iteration: z.optional(IterationNumber) })),
);

export const GateVerifyOptionsArg = deferred(() =>
  options(z.object({ requireGates: z.optional(strings()), eachIteration: optionalFlag() })),
);

export const CheckpointsOptionsArg = deferred(() =>
  options(
    z.object({
      home: z.optional(DirSetting),
      maxFileSizeBytes: z.optional(PositiveCount()),
      excludePaths: z.optional(strings()),
      lockTimeoutMs: z.optional(TimeoutMs),
      gitTimeoutMs: z.optional(TimeoutMs),
      identity: z.optional(Identity),
      maxStoreBytes: z.optional(PositiveCount()),
      keep: z.optional(PositiveCount()),
      signal: z.optional(z.instanceof(AbortSignal)),
    }),
  ),
);

export const TrackOptionsArg = deferred(() =>
  options(
    z.object({
      baseline: optionalFlag(),
      session: optionalText(),
      event: optionalText(),
      beforePrompt: optionalFlag(),
      delivery: z.optional(z.object({ hook: z.string(), text: z.string() })),
      unlessUnchanged: optionalFlag(),
      touched: z.optional(strings()),
      checkObjects: optionalFlag(),
    }),
  ),
);

/** A prompt number of an agent session: they count from 1. */
export const PromptNumberArg = deferred(() => z.int().check(z.positive()));

export const PathsArg = deferred(() => z.optional(strings()));
export const PatchesArg = deferred(() => z.array(z.object({ hash: z.string(), files: strings() })));
export const SessionRestoreOptionsArg = deferred(() =>
  options(z.object({ force: optionalFlag(), dryRun: optionalFlag() })),
);
export const GcOptionsArg = deferred(() =>
  options(z.object({ keep: z.optional(z.number()), pruneAge: optionalText() })),
);

/** resolveSettings' options: its settings by config.yaml's own rules (types/config.ts). */
export const SettingsOptionsArg = deferred(() =>
  z.object({
    home: DirSetting,
    configFile: optionalText(),
    cwd: optionalText(),
    homeSource: z.optional(z.enum(['--home', 'AGENTGATE_HOME', 'default'])),
    artifactsDir: z.optional(DirSetting),
    onDirty: z.optional(OnDirty),
    gitTimeoutMs: z.optional(TimeoutMs),
    lockTimeoutMs: z.optional(TimeoutMs),
    identity: z.optional(Identity),
    env: z.optional(environment()),
  }),
);

/** loadConfig's options: the home and the config file (types/config.ts's rules). */
export const LoadConfigOptionsArg = deferred(() =>
  z.object({ home: DirSetting, configFile: optionalText(), cwd: optionalText() }),
);

/** An agent hook's event (src/hooks/agent-hook.ts, AgentEvent); an empty workspace would be wherever the hook runs. */
export const AgentEventArg = deferred(() =>
  z.object({
    agent: z.string(),
    workspace: WorkspaceArg,
    session: z.string(),
    event: z.string(),
    kind: z.enum(['baseline', 'before-prompt', 'latest']),
    promptText: optionalText(),
    detail: optionalText(),
    touched: z.optional(strings()),
    note: optionalText(),
  }),
);

const hookFields = () => ({
  settings: z.optional(z.object({ home: DirSetting })),
  home: z.optional(DirSetting),
  configFile: optionalText(),
  deadline: z.optional(z.number()),
});

export const AgentHookOptionsArg = deferred(() => options(z.object(hookFields())));
export const EventHookOptionsArg = deferred(() =>
  options(
    z.object({
      ...hookFields(),
      event: optionalText(),
      cwd: optionalText(),
      homeDir: optionalText(),
      env: z.optional(environment()),
      seen: z.optional(z.object({})),
    }),
  ),
);
export const HookAgentArg = deferred(() => z.enum(HOOK_AGENTS));
export const HookInputArg = deferred(() => z.union([z.string(), z.object({ unreadable: z.string() })]));
/** logOutcome's arguments: the home, who sent the event, and the outcome to log. */
export const LogOutcomeArgs = deferred(() =>
  z.tuple([
    DirSetting,
    z.object({ agent: z.string(), event: optionalText(), session: optionalText() }),
    HookOutcome,
  ]),
);

/** `hook install` and `hook uninstall`'s options (HookInstallOptions); only install runs anything, so only it needs the runner. */
const hookInstallFields = () => ({
  scope: z.enum(['project', 'user']),
  workspace: WorkspaceArg,
  homeDir: DirSetting,
  env: z.optional(environment()),
  dryRun: optionalFlag(),
  home: z.optional(DirSetting),
});
const hookRunner = () =>
  z.object({ node: z.string(), bin: z.string(), home: optionalText(), config: optionalText() });
export const HookInstallOptionsArg = deferred(() =>
  z.object({ ...hookInstallFields(), runner: hookRunner() }),
);
export const HookUninstallOptionsArg = deferred(() =>
  z.object({ ...hookInstallFields(), runner: z.optional(hookRunner()) }),
);

export const ReportFormatArg = ReportFormat;
export const ReportOptionsArg = deferred(() =>
  options(
    z.object({
      limits: z.optional(
        z.object({
          maxFileDiffBytes: z.optional(z.int().check(z.nonnegative())),
          maxTotalDiffBytes: z.optional(z.int().check(z.nonnegative())),
        }),
      ),
      workspace: optionalText(),
    }),
  ),
);
export const DateArg = deferred(() => z.instanceof(Date));

/** A repository as `openRepo` gives it. */
export const RepoArg = deferred(() =>
  z.object({ cwd: z.string(), topLevel: z.string(), gitDir: z.string() }),
);
export const OpenRepoOptionsArg = deferred(() =>
  options(z.object({ identity: z.optional(Identity), timeoutMs: z.optional(TimeoutMs) })),
);

/** What `computeTrace` reads (RecordSources): a run's snapshots and the gate verdicts of one home. */
const recordSourceFields = () => ({
  snapshotter: z.object({ store: z.object({ home: z.string() }), listByRun: FunctionArg }),
  gates: z.object({ home: z.string() }),
});
export const RecordSourcesArg = deferred(() => z.object(recordSourceFields()));
/** What the anchor functions read and write (ProvenanceSources, as `provenanceSources` gives them). */
export const ProvenanceSourcesArg = deferred(() =>
  z.object({
    ...recordSourceFields(),
    snapshotter: z.object({
      options: snapshotterOptions(),
      store: z.object({ home: z.string() }),
      listByRun: FunctionArg,
    }),
    anchors: z.object({ dir: z.string() }),
  }),
);
export const AnchorOptionsArg = deferred(() =>
  options(z.object({ runIds: z.optional(strings()), now: optionalDate() })),
);
export const TraceOptionsArg = deferred(() =>
  options(
    z.object({
      rev: optionalText(),
      range: z.optional(z.object({ start: z.int(), end: z.int() })),
      runIds: z.optional(strings()),
      shortcut: optionalFlag(),
    }),
  ),
);
export const CommitStatementOptionsArg = deferred(() =>
  options(z.object({ env: z.optional(environment()), cwd: optionalText() })),
);
