import { mkdtemp, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteFailedError } from '../errors.js';

/**
 * A new directory of our own in the temporary directory (`$TMPDIR`, else `/tmp`), named `prefix` and
 * six characters. WRITE_FAILED naming that directory when none can be made there (a `TMPDIR` that is
 * a file, missing, or not writable), not an unexplained INTERNAL.
 */
export async function makeTempDir(prefix: string): Promise<string> {
  const base = tmpdir();
  try {
    return await mkdtemp(join(base, prefix));
  } catch (cause) {
    throw new WriteFailedError(
      `could not make a directory in the temporary directory ${base} (${(cause as NodeJS.ErrnoException).code ?? String(cause)}); set TMPDIR to a directory you can write to, then retry`,
      { cause, details: { path: base, variable: 'TMPDIR' } },
    );
  }
}

/** WRITE_FAILED (makeTempDir's) unless a temporary directory can be made: asked before a commit is. */
export async function assertTempDirUsable(): Promise<void> {
  await rmdir(await makeTempDir('agentgate-probe-'));
}
