import { join } from 'node:path';
import { TrackedIgnoredRecord } from '../../types/checkpoint.js';
import { GitFailedError } from '../errors.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { readFileTail, readRegularText } from '../fs/regular-file.js';
import type { ProbeOptions, WorkspaceProbe } from '../git/checkpoint-repo.js';
import { listWorkspaceIgnoredTracked } from '../git/workspace-ignored.js';

/**
 * The files the workspace's repository tracks although its ignore rules match them (`git add -f`
 * of a build output, or a `.env.example` under `.env*`). git does not ignore a tracked file, and
 * neither do checkpoints: a capture stages them, and restore, revert and the diffs treat them as
 * any captured file. Asking git costs an agent hook a process per event, so the answer is kept in
 * `<store>/tracked-ignored.json` with the checksum that ends the workspace's index file: what a
 * repository tracks changes only with its index, and its checksum with every byte of it (no clock
 * is trusted). Rules that change can make a tracked file ignored without that; such a file was
 * captured before, so the store's own index lists it as ignored, and a path there that the kept
 * answer lacks makes the capture ask again.
 */

/** The trailing checksum's length in a SHA-256 repository (SHA-1's 20 bytes and the 12 before them otherwise). */
const SEAL_BYTES = 32;

export class TrackedIgnored {
  /** What the latest capture took as tracked and ignored (git paths). */
  current: ReadonlySet<string> = new Set();

  constructor(
    private readonly root: string,
    /** The workspace repository's index file; null outside a repository (nothing is tracked). */
    private readonly index: string | null,
    private readonly storeDir: string,
    private readonly gitOpts: ProbeOptions,
  ) {}

  /**
   * The tracked and ignored files now. `storeIgnored`: the store index's entries that the rules
   * match. `keep`: write the answer for the next process (a track; a read leaves the home as it was).
   */
  async load(storeIgnored: readonly string[], keep: boolean): Promise<ReadonlySet<string>> {
    if (this.index === null) return this.current;
    const seal = await indexSeal(this.index);
    // No index yet (nothing tracked), or one that is no file git could read: nothing to ask.
    if (seal === 'missing' || seal === null) return (this.current = new Set());
    const file = join(this.storeDir, 'tracked-ignored.json');
    const kept = await readRecord(file);
    if (kept !== null && kept.workspace === this.root && kept.index === seal) {
      const paths = new Set(kept.paths);
      if (storeIgnored.every((p) => paths.has(p))) return (this.current = paths);
    }
    const paths = await this.ask();
    if (paths === null) return (this.current = new Set());
    const record: TrackedIgnoredRecord = { workspace: this.root, index: seal, paths };
    if (keep && !/^0+$/.test(seal)) await writeJsonAtomic(file, record).catch(() => undefined);
    return (this.current = new Set(paths));
  }

  /** git's answer; null when git cannot read the repository's index (checkpoints never needed it). */
  private async ask(): Promise<string[] | null> {
    return listWorkspaceIgnoredTracked(this.root, this.gitOpts).catch((error: unknown) => {
      if (error instanceof GitFailedError) return null;
      throw error;
    });
  }
}

/** The index file of the workspace's repository (its git dir's; a cached probe's is `<root>/.git`), or null outside one. */
export function workspaceIndex(probe: WorkspaceProbe): string | null {
  return probe.isRepository ? join(probe.gitDir ?? join(probe.root, '.git'), 'index') : null;
}

/**
 * The index's last bytes, its checksum (all zeros with `index.skipHash`: then never kept), in hex;
 * `missing` or null as readFileTail says.
 */
async function indexSeal(path: string): Promise<string | 'missing' | null> {
  const tail = await readFileTail(path, SEAL_BYTES);
  return tail === 'missing' || tail === null ? tail : tail.toString('hex');
}

async function readRecord(file: string): Promise<TrackedIgnoredRecord | null> {
  try {
    const parsed = TrackedIgnoredRecord.safeParse(JSON.parse((await readRegularText(file)) ?? ''));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
