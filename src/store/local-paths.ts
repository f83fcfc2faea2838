import { realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import type { RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import { patchPath } from './paths.js';

/**
 * Paths as this machine sees them, for a record that may come from another machine (a copied
 * store): the patch artifact is looked for under the artifacts directory in use (`--artifacts-dir`,
 * `$AGENTGATE_ARTIFACTS_DIR` or `<home>/artifacts`) when it is not where it was recorded, and the
 * local workspace (`-C`) stands in for a recorded workspace that is not here, and for any other when
 * `wins` (a command about one run, told where that run is). Costs no file check when the record was
 * made with this home. Needs no git, so that listing the store loads none.
 */
export class LocalPaths {
  constructor(
    private readonly artifactsDir: string,
    private readonly localWorkspace?: string,
    private readonly wins = false,
  ) {}

  async snapshot(snapshot: Snapshot): Promise<Snapshot> {
    const workspace = await this.workspaceFor(snapshot.workspace);
    let out = workspace === snapshot.workspace ? snapshot : { ...snapshot, workspace };
    if (out.patchPath === null) return out;
    const here = patchPath(this.artifactsDir, out.runId, out.iteration);
    if (here === out.patchPath) return out;
    // A received snapshot's artifact is built on demand: where the artifacts directory in use says.
    if (out.recordedWorkspace !== undefined || (await isA(here, 'file'))) out = { ...out, patchPath: here };
    return out;
  }

  async run(run: RunRecord): Promise<RunRecord> {
    const workspace = await this.workspaceFor(run.workspace);
    return workspace === run.workspace ? run : { ...run, workspace };
  }

  private async workspaceFor(recorded: string): Promise<string> {
    const local = this.localWorkspace;
    if (local === undefined || local === recorded) return recorded;
    if (this.wins) {
      // The recorded workspace itself, or a directory inside it (`-C src`), names that workspace.
      const real = await realpath(local).catch(() => local);
      return real === recorded || real.startsWith(`${recorded}${sep}`) ? recorded : local;
    }
    return (await isA(recorded, 'directory')) ? recorded : local;
  }
}

async function isA(path: string, kind: 'file' | 'directory'): Promise<boolean> {
  return stat(path).then(
    (s) => (kind === 'file' ? s.isFile() : s.isDirectory()),
    () => false,
  );
}
