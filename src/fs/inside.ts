import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { UnsafeWorkspaceError } from '../errors.js';

/** Whether `child` is `parent` or lies under it (lexically). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The real path of `path`, also when it does not exist yet: its nearest existing ancestor's real
 * path joined with the rest.
 */
export async function realPathOf(path: string): Promise<string> {
  const real = await realpath(path).catch(() => null);
  if (real !== null) return real;
  const parent = dirname(path);
  return parent === path ? path : join(await realPathOf(parent), basename(path));
}

/**
 * Before we write a file of ours (a patch artifact, made by `after` or rebuilt from a fetched record)
 * that lands inside the workspace: no directory
 * between the workspace and the file may be a symbolic link, which the agent could have put there
 * to make us write elsewhere.
 */
export async function assertNoLinkInside(topLevel: string, file: string): Promise<void> {
  const real = await realPathOf(dirname(file));
  const lexical = relative(topLevel, file);
  const inside = isInside(topLevel, real) || (!lexical.startsWith('..') && lexical !== '');
  if (!inside) return;
  const rel = isInside(topLevel, file) ? lexical : relative(topLevel, join(real, basename(file)));
  let at = topLevel;
  for (const part of rel.split(sep).slice(0, -1)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => null);
    if (info?.isSymbolicLink()) {
      throw new UnsafeWorkspaceError(
        `${at} inside the workspace is a symbolic link, so writing ${file} would follow it elsewhere; remove the link (or keep artifacts outside the workspace) and retry`,
        {
          details: { workspace: topLevel, path: at },
        },
      );
    }
  }
}
