/**
 * A travelling record's three objects (its JSON blob, the tree holding it, the commit) and the one
 * way they are written: each kind through a temp file per object, then `writeObjects`.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeObjects } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import { layout } from '../store/paths.js';

export interface RecordObjects {
  json: { id: string; content: Buffer };
  tree: { id: string; content: Buffer };
  commit: { id: string; content: Buffer };
}

/** Writes every record's objects (blobs, then trees, then commits) in a temp dir of `home` (`label` names it). */
export async function writeRecordObjects(
  repo: Repo,
  home: string,
  label: string,
  records: readonly RecordObjects[],
): Promise<void> {
  const dir = join(layout(home).home, 'tmp', `${label}-${randomBytes(6).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  try {
    for (const [type, key] of [
      ['blob', 'json'],
      ['tree', 'tree'],
      ['commit', 'commit'],
    ] as const) {
      const files = new Map<string, string>();
      for (const r of records) {
        const path = join(dir, `${type}-${r[key].id}`);
        if (!files.has(r[key].id)) await writeFile(path, r[key].content);
        files.set(r[key].id, path);
      }
      await writeObjects(
        repo,
        type,
        [...files].map(([id, path]) => ({ id, path })),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
