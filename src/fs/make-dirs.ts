import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `mkdir -p` that always ends. Node's `mkdir(path, { recursive: true })` tries again for ever when
 * a directory cannot be made in one that exists: procfs answers ENOENT there, so a home or
 * artifacts directory under `/proc` or `/dev/fd` (a relative `artifactsDir` in `--config <(...)`)
 * spun at full CPU. Here each missing level is made once, and its error is the caller's.
 */
export async function makeDirs(path: string): Promise<void> {
  const made = await mkdir(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? false : existingDirectory(path, error)),
  );
  if (made) return;
  const parent = dirname(path);
  if (parent !== path) await makeDirs(parent);
  await mkdir(path).catch((error: NodeJS.ErrnoException) => existingDirectory(path, error));
}

/** Done when `path` is a directory already (made meanwhile, or there all along), else the error. */
async function existingDirectory(path: string, error: NodeJS.ErrnoException): Promise<true> {
  if (error.code === 'EEXIST' && (await stat(path).catch(() => null))?.isDirectory() === true) return true;
  throw error;
}
