import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { idGenerator } from '../fs/random-id.js';
import { GateResult, MAX_GATE_ATTEMPT } from '../../types/gate.js';
import { sortGateResults } from '../../types/gate-rules.js';
import { ConcurrentUpdateError, InvalidArgumentError, type StoreCorruptError } from '../errors.js';
import { checkDirArgument, checkStoreOptions } from '../arguments.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { DEFAULT_LOCK_TIMEOUT_MS, withLock } from '../fs/lock.js';
import {
  corruptFile,
  describeIssues,
  listJsonNames,
  loadAll,
  readJsonFile,
  wholeOrThrow,
} from './json-file.js';
import { assertReceivableGateId, assertSafeId, layout } from './paths.js';

/** Random, file- and ref-name safe, unique across machines (a CI matrix records verdicts at once). */
const randomGateId = idGenerator(20);

/** Never digits alone, which no receiver takes (assertReceivableGateId); 1 in 10^11 draws is. */
function newGateId(): string {
  for (;;) {
    const id = randomGateId();
    if (/[a-z]/.test(id)) return id;
  }
}

/** A verdict as the caller builds it: the store numbers the attempt and gives the id. */
export type NewGateResult = Omit<GateResult, 'id' | 'attempt'>;

/**
 * Gate verdicts under the home: `gates/<runId>/<id>.json`, one file per attempt, append-only.
 * Appending numbers the attempt under the run's gate lock; nothing ever rewrites a stored verdict.
 */
export class GateStore {
  readonly home: string;
  private readonly lockTimeoutMs: number;

  constructor(home: string, options: { lockTimeoutMs?: number } = {}) {
    this.home = resolve(checkDirArgument(home, 'home'));
    checkStoreOptions(options, 'options');
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  runDir(runId: string): string {
    return join(layout(this.home).gates, assertSafeId(runId, 'run id'));
  }

  path(runId: string, id: string): string {
    return join(this.runDir(runId), `${assertSafeId(id, 'gate id')}.json`);
  }

  /**
   * Stores a new local attempt: the next attempt number for its iteration and name (after every
   * attempt known here, fetched ones included) and a fresh id. Returns what was stored. `place`,
   * when given, runs under the lock once the attempt number is known (to move the attempt's log
   * to its numbered name) and returns the verdict to store. `used`, when given, says the highest
   * attempt number something else already holds (a log whose verdict file no longer loads): the
   * new attempt comes after it too.
   */
  async append(
    result: NewGateResult,
    place?: (attempt: number) => Promise<NewGateResult>,
    used?: () => Promise<number>,
  ): Promise<GateResult> {
    return this.withRunLock(result.runId, async () => {
      const attempt = await this.nextAttempt(result, used);
      const id = newGateId();
      // Checked before `place` moves the log to the attempt's name: a log with no verdict fails verify.
      validate({ ...result, id, attempt });
      const placed = place === undefined ? result : await place(attempt);
      const stored = validate({ ...placed, id, attempt });
      await writeJsonAtomic(this.path(stored.runId, stored.id), stored);
      return stored;
    });
  }

  /**
   * The attempt number the next local verdict of `of`'s iteration and name gets (see `append`);
   * INVALID_ARGUMENT when it would pass MAX_GATE_ATTEMPT, which no stored verdict may. `gate` asks
   * before its command runs, so that the check never runs for a verdict that cannot be stored.
   */
  async nextAttempt(
    of: Pick<GateResult, 'runId' | 'iteration' | 'name'>,
    used?: () => Promise<number>,
  ): Promise<number> {
    const { results } = await this.list(of.runId);
    const highest = results
      .filter((r) => r.iteration === of.iteration && r.name === of.name)
      .reduce((max, r) => Math.max(max, r.attempt), used === undefined ? 0 : await used());
    if (highest >= MAX_GATE_ATTEMPT)
      throw new InvalidArgumentError(
        `gate ${of.name} of run ${of.runId} iteration ${of.iteration} already has attempt ${highest}, the highest a verdict may have; record it under another --name ("gate list" shows the verdicts)`,
        { details: { runId: of.runId, iteration: of.iteration, name: of.name, attempt: highest } },
      );
    return highest + 1;
  }

  /**
   * Stores a verdict recorded elsewhere (fetched or imported) under its own id, with `receivedAt`
   * (now: it bounds the verdict's place in the order). The same verdict again is a no-op and returns false; a different verdict under a known id is refused
   * (CONCURRENT_UPDATE): a stored attempt is never replaced.
   */
  async receive(result: GateResult, now: Date = new Date()): Promise<boolean> {
    const valid = validate({ ...result, receivedAt: now.toISOString() });
    assertReceivableGateId(valid.id);
    return this.withRunLock(valid.runId, async () => {
      const existing = await this.load(valid.runId, valid.id);
      if (existing !== null) {
        if (sameVerdict(existing, valid)) return false;
        throw new ConcurrentUpdateError(
          `gate verdict ${valid.id} of run ${valid.runId} is already stored with other content; a stored verdict is never replaced`,
          { details: { runId: valid.runId, id: valid.id } },
        );
      }
      await writeJsonAtomic(this.path(valid.runId, valid.id), valid);
      return true;
    });
  }

  /** One verdict, or null; STORE_CORRUPT when its file is unusable or names another verdict. */
  async load(runId: string, id: string): Promise<GateResult | null> {
    const path = this.path(runId, id);
    const result = await readJsonFile(path, GateResult, 'gate verdict');
    if (result !== null && (result.id !== id || result.runId !== runId)) {
      throw corruptFile(path, 'gate verdict', `it holds verdict ${result.id} of run ${result.runId}`);
    }
    return result;
  }

  /** The run's verdicts in `gate list` order, and one problem per file that does not load. */
  async list(runId: string): Promise<{ results: GateResult[]; problems: StoreCorruptError[] }> {
    const { items, problems } = await loadAll(this.runDir(runId), 'gate verdict', (id) =>
      this.load(runId, id),
    );
    return { results: sortGateResults(items), problems };
  }

  /**
   * The run's verdicts in `gate list` order, for what judges or publishes them (attest, report,
   * export, push, trace): STORE_CORRUPT naming the first file that does not load, never a partial set.
   */
  async listStrict(runId: string): Promise<GateResult[]> {
    const { results, problems } = await this.list(runId);
    return wholeOrThrow(results, problems);
  }

  /** Every run that has verdicts here. */
  async runIds(): Promise<string[]> {
    try {
      return (await readdir(layout(this.home).gates)).filter((name) => !name.startsWith('.')).sort();
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return [];
      const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
      throw corruptFile(layout(this.home).gates, 'store directory', `unreadable (${code})`, cause);
    }
  }

  /** Whether the run has any verdict file (cheap: no parsing). */
  async hasAny(runId: string): Promise<boolean> {
    return (await listJsonNames(this.runDir(runId))).length > 0;
  }

  private withRunLock<T>(runId: string, fn: () => Promise<T>): Promise<T> {
    const lockPath = join(layout(this.home).locks, `gates-${assertSafeId(runId, 'run id')}.lock`);
    return withLock(lockPath, { timeoutMs: this.lockTimeoutMs, purpose: `gate verdicts of ${runId}` }, fn);
  }
}

function validate(value: unknown): GateResult {
  const parsed = GateResult.safeParse(value);
  if (!parsed.success) {
    throw new InvalidArgumentError(`gate verdict is not valid: ${describeIssues(parsed.error.issues)}`, {
      details: { issues: parsed.error.issues },
    });
  }
  return parsed.data;
}

/** Two copies of one verdict; the log's path and when it was received are this machine's and may differ. */
function sameVerdict(a: GateResult, b: GateResult): boolean {
  const strip = ({ receivedAt: _, ...r }: GateResult) =>
    JSON.stringify({ ...r, log: r.log && { ...r.log, path: null } });
  return strip(a) === strip(b);
}
