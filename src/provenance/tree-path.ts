import { isAbsolute, posix, relative, sep } from 'node:path';

/**
 * PATH as git names it in a tree: relative to the top level, `/`-separated, without `./` or `.`
 * segments. An absolute path counts from the file system root and must lie inside the top level.
 * Null for a path that leaves the top level or names it: no file of the repository is called so
 * (git itself would refuse the path outright rather than say it is missing).
 */
export function treePath(topLevel: string, path: string): string | null {
  const local = isAbsolute(path) ? relative(topLevel, path).split(sep).join('/') : path;
  const normal = posix.normalize(local).replace(/^\.\//, '');
  const outside = normal === '..' || normal.startsWith('../') || posix.isAbsolute(normal);
  return outside || normal === '' || normal === '.' ? null : normal;
}
