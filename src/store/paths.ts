import { join, resolve } from 'node:path';
import { HomeArg, TextArg } from '../../types/library.js';
import { SafeId } from '../../types/snapshot.js';
import { checkArgument, checkDirArgument } from '../arguments.js';
import { InvalidIdError } from '../errors.js';
import { accountHome } from '../fs/home-dir.js';
import { makeOwnDir } from '../fs/own-dir.js';
import { isInside } from '../fs/inside.js';

/** The agentgate home: an explicit option, else $AGENTGATE_HOME, else ~/.agentgate. */
export function resolveHome(explicit?: string): string {
  return chooseHome(explicit).home;
}

/** What chose the home, named in messages about it. */
export type HomeSource = '--home' | 'AGENTGATE_HOME' | 'default';

/** resolveHome, with what chose the home; an empty one is INVALID_ARGUMENT (it would be the working directory). */
export function chooseHome(explicit?: string): { home: string; source: HomeSource } {
  const given = checkArgument(HomeArg, explicit, 'home');
  if (given !== undefined) return { home: expandHome(given), source: '--home' };
  if (process.env.AGENTGATE_HOME) {
    return { home: expandHome(process.env.AGENTGATE_HOME), source: 'AGENTGATE_HOME' };
  }
  return { home: join(accountHome(), '.agentgate'), source: 'default' };
}

/**
 * A leading `~/` is the account's home, as for the artifacts directory: no shell expands it in
 * `--home=~/x` or in a CI file's `env:`, and `./~/x` would put the home in the workspace.
 */
function expandHome(value: string): string {
  if (value === '~') return accountHome();
  return value.startsWith('~/') ? join(accountHome(), value.slice(2)) : resolve(value);
}

/** Where everything lives under a home (see CONTRACT.md, "Where data lives"). */
export function layout(home: string) {
  checkDirArgument(home, 'home');
  return {
    home,
    snapshots: join(home, 'snapshots'),
    runs: join(home, 'runs'),
    gates: join(home, 'gates'),
    artifacts: join(home, 'artifacts'),
    checkpoints: join(home, 'checkpoints'),
    locks: join(home, 'locks'),
    /** Temporary checkouts of gates run with --isolated (swept when their owner is gone). */
    gateCheckouts: join(home, 'tmp', 'gates'),
    logs: join(home, 'logs'),
    anchors: join(home, 'anchors'),
    cache: join(home, 'cache'),
    config: join(home, 'config.yaml'),
  };
}

/** Whether `dir` is the home or lies in one of the directories the home keeps its data in. */
export function isOwnData(home: string, dir: string): boolean {
  const own = layout(home);
  const dirs = [own.snapshots, own.runs, own.gates, own.artifacts, own.checkpoints, own.locks, own.logs];
  return dir === home || [...dirs, own.gateCheckouts, own.anchors, own.cache].some((d) => isInside(d, dir));
}

/**
 * Ids become file and ref names: anything outside the safe set is refused before it touches a path.
 * A value that is no string at all (a JavaScript caller of the store's methods) is INVALID_ARGUMENT.
 */
export function assertSafeId(
  value: string,
  what: 'snapshot id' | 'run id' | 'gate id' | 'gate name',
): string {
  if (typeof value !== 'string') checkArgument(TextArg, value, what);
  const parsed = SafeId.safeParse(value);
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message ?? 'invalid';
    throw new InvalidIdError(`${what} ${JSON.stringify(value.slice(0, 80))} is not allowed: ${reason}`, {
      details: { value: value.slice(0, 200), what },
    });
  }
  return value;
}

/** `<artifacts>/<runId>/`: a run's patches and gate logs. */
export function runArtifactsDir(artifactsDir: string, runId: string): string {
  return join(artifactsDir, assertSafeId(runId, 'run id'));
}

/**
 * Makes the run's artifacts directory, when missing, marked as ours (makeOwnDir: a `.gitignore` of
 * `*`), before a file of the run is written under it: an artifacts directory inside a workspace is
 * then never committed, whatever artifacts directory a later call uses. The artifacts directory
 * itself may be the user's (`--artifacts-dir src`) and is never marked.
 */
export async function makeRunArtifactsDir(artifactsDir: string, runId: string): Promise<void> {
  await makeOwnDir(runArtifactsDir(artifactsDir, runId));
}

/** `<artifacts>/<runId>/iteration-<n>/`: an iteration's patch and gate logs. */
export function iterationArtifactsDir(artifactsDir: string, runId: string, iteration: number): string {
  return join(runArtifactsDir(artifactsDir, runId), `iteration-${iteration}`);
}

/** `<artifacts>/<runId>/iteration-<n>/patch.diff` */
export function patchPath(artifactsDir: string, runId: string, iteration: number): string {
  return join(iterationArtifactsDir(artifactsDir, runId, iteration), 'patch.diff');
}

/** `<artifacts>/<runId>/iteration-<n>/gate-<name>-<attempt>.log` */
export function gateLogPath(
  artifactsDir: string,
  runId: string,
  iteration: number,
  name: string,
  attempt: number,
): string {
  return join(
    iterationArtifactsDir(artifactsDir, runId, iteration),
    `gate-${assertSafeId(name, 'gate name')}-${attempt}.log`,
  );
}

/**
 * A verdict id received from elsewhere must keep its log's name (receivedGateLogPath) its own:
 * one of digits alone would name this machine's log of another attempt (gate `test` attempt 1 id
 * `2`: `gate-test-1-2.log`, gate `test-1`'s attempt 2), one holding a `-` another received
 * verdict's (`test`, 1, `1-x` and `test-1`, 1, `x`). Ids we make are neither (newGateId); a
 * publisher that forged one is refused (INVALID_ID). With these two rules the name is read back
 * one way only: the id after the last `-`, the attempt after the one before.
 */
export function assertReceivableGateId(id: string): string {
  assertSafeId(id, 'gate id');
  if (id.includes('-') || /^[0-9]+$/.test(id))
    throw new InvalidIdError(
      `gate id ${JSON.stringify(id.slice(0, 80))} is not allowed for a verdict received from elsewhere: it holds a "-" or only digits, so its log's name could be another verdict's`,
      { details: { value: id.slice(0, 200), what: 'gate id' } },
    );
  return id;
}

/**
 * `<artifacts>/<runId>/iteration-<n>/gate-<name>-<attempt>-<id>.log`: a received verdict's log.
 * Its id is in the name, as two machines of a matrix may both record attempt 1: never the name of
 * this machine's own attempt's log (gateLogPath).
 */
export function receivedGateLogPath(
  artifactsDir: string,
  gate: { runId: string; iteration: number; name: string; attempt: number; id: string },
): string {
  return join(
    iterationArtifactsDir(artifactsDir, gate.runId, gate.iteration),
    `gate-${assertSafeId(gate.name, 'gate name')}-${gate.attempt}-${assertSafeId(gate.id, 'gate id')}.log`,
  );
}
