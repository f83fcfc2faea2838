import { isAbsolute, resolve } from 'node:path';
import { WorkspaceNotFoundError } from '../errors.js';
import { currentDirectory } from '../fs/current-dir.js';
import type { SnapshotterOptions } from '../snapshotter/core.js';
import { settingsFor, type Settings } from '../store/config.js';
import { chooseHome } from '../store/paths.js';
import { LocalPaths } from '../store/local-paths.js';
import { SnapshotStore } from '../store/snapshot-store.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import type { Gates } from '../gates/gates.js';

/** The options the run-snapshot services (snapshotter, sharing) take from the settings and from -C. */
type ServiceOptions = Pick<
  SnapshotterOptions,
  | 'home'
  | 'artifactsDir'
  | 'identity'
  | 'gitTimeoutMs'
  | 'lockTimeoutMs'
  | 'localWorkspace'
  | 'localWorkspaceWins'
>;

/** The global options a context is built from (see GLOBAL_OPTIONS in spec.ts). */
export interface ContextValues {
  workspace?: string | undefined;
  home?: string | undefined;
  'artifacts-dir'?: string | undefined;
  config?: string | undefined;
  json: boolean;
}

/**
 * What every command gets: where the workspace and home are, the settings, and the services. The
 * services that run git are imported when first asked for, so that a command that only reads the
 * store (`runs`, `list`) loads neither git nor the snapshotter.
 */
export class Context {
  private snapshotterInstance: Promise<Snapshotter> | null = null;
  private gatesInstance: Promise<Gates> | null = null;
  private givenWorkspaceWins = false;

  private constructor(
    readonly workspace: string,
    readonly settings: Settings,
    readonly json: boolean,
    /** Whether -C named the workspace: then it also stands in for a recorded workspace that is not on this machine. */
    readonly workspaceGiven: boolean,
    /**
     * Whether --home or $AGENTGATE_HOME named the home: then the hooks `hook install` writes name it
     * too (an agent started from a desktop does not inherit the variable).
     */
    readonly homeGiven: boolean,
  ) {}

  /**
   * `cwdMayBeGone`: an agent hook, whose event names its workspace by an absolute path, still runs
   * when the directory it was started in has been deleted, as long as no path it is given is
   * relative (nothing to resolve it against); its context's workspace is then `/`, which it never reads.
   */
  static async create(values: ContextValues, opts: { cwdMayBeGone?: boolean } = {}): Promise<Context> {
    const cwd = startDirectory(opts.cwdMayBeGone === true ? values : null);
    const { home, source } = chooseHome(values.home);
    const settings = await settingsFor({
      home,
      homeSource: source,
      configFile: values.config,
      artifactsDir: values['artifacts-dir'],
      cwd,
    });
    return new Context(
      resolve(cwd, values.workspace ?? '.'),
      settings,
      values.json,
      values.workspace !== undefined,
      values.home !== undefined || Boolean(process.env.AGENTGATE_HOME),
    );
  }

  /** What the run-snapshot services (snapshotter, sharing) take from the settings and from -C. */
  get serviceOptions(): ServiceOptions {
    const { home, artifactsDir, identity, gitTimeoutMs, lockTimeoutMs } = this.settings;
    return {
      home,
      artifactsDir,
      identity,
      gitTimeoutMs,
      lockTimeoutMs,
      ...(this.workspaceGiven ? { localWorkspace: this.workspace } : {}),
      ...(this.workspaceGiven && this.givenWorkspaceWins ? { localWorkspaceWins: true } : {}),
    };
  }

  /**
   * For a command about one run (`verify --run`, `report`): -C names where that run is, also when
   * the recorded workspace exists (a clone beside the original). Called before the services are made.
   */
  preferGivenWorkspace(): void {
    this.givenWorkspaceWins = true;
  }

  /**
   * WORKSPACE_NOT_FOUND when -C names no directory. For the commands that read the home alone
   * (`list`, `runs`, `show`, `patch`, `stats`, `verify`, `delete`, `gate list`, `report`): -C stands
   * in for the recorded workspace in what they print and check, and a mistyped one must not pass
   * unnoticed. git is loaded only when -C is given.
   */
  async assertGivenWorkspace(): Promise<void> {
    if (!this.workspaceGiven) return;
    const { resolveWorkspaceDir } = await import('../git/repo.js');
    await resolveWorkspaceDir(this.workspace);
  }

  /**
   * For a command that checks every snapshot in the workspace -C names (`verify ID`, `verify --run`):
   * a -C that is a directory but no work tree of a repository (a plain directory, a bare repository)
   * is NOT_A_REPOSITORY or UNSAFE_WORKSPACE (exit 1): the checks cannot run there, which is no
   * failed `workspace` check of every snapshot (exit 3, a tampered run to a gate).
   */
  async assertGivenRepository(): Promise<void> {
    if (!this.workspaceGiven) return;
    const { openRepo } = await import('../git/repo.js');
    await openRepo(this.workspace, { timeoutMs: this.settings.gitTimeoutMs });
  }

  /** The store, for commands that only read it. */
  get store(): SnapshotStore {
    return new SnapshotStore(this.settings.home, { lockTimeoutMs: this.settings.lockTimeoutMs });
  }

  /** Recorded paths as this machine has them (see LocalPaths). */
  get localPaths(): LocalPaths {
    const { localWorkspace, localWorkspaceWins } = this.serviceOptions;
    return new LocalPaths(this.settings.artifactsDir, localWorkspace, localWorkspaceWins);
  }

  snapshotter(): Promise<Snapshotter> {
    this.snapshotterInstance ??= import('../snapshotter/snapshotter.js').then(
      ({ Snapshotter }) => new Snapshotter({ ...this.serviceOptions, onDirty: this.settings.onDirty }),
    );
    return this.snapshotterInstance;
  }

  gates(): Promise<Gates> {
    this.gatesInstance ??= Promise.all([import('../gates/gates.js'), this.snapshotter()]).then(
      ([{ Gates }, snapshotter]) => new Gates(snapshotter),
    );
    return this.gatesInstance;
  }
}

/**
 * The directory the command was started in; WORKSPACE_NOT_FOUND when it has been deleted (the shell
 * still stands in it): every relative path, `.` included, would name nothing. With `values` (an
 * agent hook), `/` stands for it then, unless one of those paths is relative.
 */
function startDirectory(values: ContextValues | null): string {
  const cwd = currentDirectory();
  if (cwd !== undefined) return cwd;
  if (values === null || relativeGiven(values))
    throw new WorkspaceNotFoundError(
      'the current directory no longer exists (it was deleted after the shell entered it); cd into a directory that exists and run the command again',
    );
  return '/';
}

/**
 * Whether a path the command is given is relative to the current directory: -C and --config, or
 * the home or artifacts directory (options or variables) unless it starts at `~`, which they expand.
 */
function relativeGiven(values: ContextValues): boolean {
  const relative = (p: string | undefined) => p !== undefined && p !== '' && !isAbsolute(p);
  const tilde = (p: string | undefined) => p === '~' || p?.startsWith('~/') === true;
  const dirs = [
    values.home,
    values['artifacts-dir'],
    process.env.AGENTGATE_HOME,
    process.env.AGENTGATE_ARTIFACTS_DIR,
  ];
  return relative(values.workspace) || relative(values.config) || dirs.some((p) => relative(p) && !tilde(p));
}
