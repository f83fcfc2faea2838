// Property: for a random small tree and a random set of changes to it (adds, edits, deletes,
// renames, binaries, mode changes, symlinks and type changes, hostile names), our stats equal
// git's own and our patch applied to the before commit gives exactly the after commit's tree.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDiffStats } from '../../src/git/diff-stats.js';
import { openRepo } from '../../src/git/repo.js';
import { writeUnifiedDiffToFile } from '../../src/git/unified-diff.js';
import { commitAll, initRepo, tempDir } from '../helpers/repo.js';
import { fsx, oracleChanges, treeAfterApply, treeOf } from '../helpers/diff-oracle.js';

/** No name is a directory of another, so any subset can exist at once. */
const NAMES = [
  'a.txt',
  'b.txt',
  'dir/c.txt',
  'dir/sub/d.md',
  'sp ace.txt',
  'ü/ñ 日本.txt',
  `q"uote's.txt`,
  'bin/e.bin',
  'x',
  'dir/y',
];
const LINK_TARGETS = ['a.txt', 'nowhere', '../outside', 'dir/c.txt'];

type Entry = { kind: 'file'; data: string | Uint8Array; exec: boolean } | { kind: 'link'; target: string };
type Model = Map<string, Entry>;

const text = fc
  .tuple(
    fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'epsilon', ''), { maxLength: 12 }),
    fc.constantFrom('\n', '\r\n'),
    fc.boolean(),
  )
  .map(([words, eol, lastEol]) => words.join(eol) + (lastEol && words.length > 0 ? eol : ''));
const binary = fc.uint8Array({ minLength: 1, maxLength: 48 }).map((b) => Uint8Array.from([0, ...b]));
const content = fc.oneof(text, binary);

const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), name: fc.nat(), data: content }),
  fc.record({ kind: fc.constant('edit' as const), target: fc.nat(), data: content }),
  fc.record({ kind: fc.constant('delete' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const), target: fc.nat(), to: fc.nat(), append: fc.boolean() }),
  fc.record({ kind: fc.constant('chmod' as const), target: fc.nat() }),
  fc.record({ kind: fc.constant('link' as const), name: fc.nat(), target: fc.constantFrom(...LINK_TARGETS) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const initial = fc
  .array(fc.tuple(fc.nat(), content, fc.boolean()), { minLength: 1, maxLength: 6 })
  .map((files) => {
    const model: Model = new Map();
    for (const [n, data, exec] of files)
      model.set(NAMES[n % NAMES.length] as string, { kind: 'file', data, exec });
    return model;
  });

function apply(model: Model, ops: Op[]): Model {
  const next: Model = new Map(model);
  const pick = (n: number): string | undefined => [...next.keys()].sort()[n % Math.max(next.size, 1)];
  for (const o of ops) {
    if (o.kind === 'add')
      next.set(NAMES[o.name % NAMES.length] as string, { kind: 'file', data: o.data, exec: false });
    else if (o.kind === 'link')
      next.set(NAMES[o.name % NAMES.length] as string, { kind: 'link', target: o.target });
    else {
      const path = pick(o.target);
      const entry = path === undefined ? undefined : next.get(path);
      if (path === undefined || entry === undefined) continue;
      if (o.kind === 'edit')
        next.set(path, { kind: 'file', data: o.data, exec: entry.kind === 'file' && entry.exec });
      else if (o.kind === 'delete') next.delete(path);
      else if (o.kind === 'chmod' && entry.kind === 'file') next.set(path, { ...entry, exec: !entry.exec });
      else if (o.kind === 'rename') {
        const free = NAMES.filter((n) => !next.has(n));
        const to = free[o.to % Math.max(free.length, 1)];
        if (to === undefined) continue;
        next.delete(path);
        const moved =
          o.append && entry.kind === 'file' && typeof entry.data === 'string'
            ? { ...entry, data: entry.data + 'appended\n' }
            : entry;
        next.set(to, moved);
      }
    }
  }
  return next;
}

/** Makes the work tree hold exactly `model` (besides .git). */
function materialise(dir: string, model: Model): void {
  for (const name of readdirSync(dir)) if (name !== '.git') fsx.rm(dir, name);
  for (const [path, entry] of model) {
    if (entry.kind === 'link') fsx.link(dir, path, entry.target);
    else {
      fsx.write(dir, path, typeof entry.data === 'string' ? entry.data : Buffer.from(entry.data));
      fsx.chmod(dir, path, entry.exec ? 0o755 : 0o644);
    }
  }
}

describe('random change sets', () => {
  it('round-trip through our patch and agree with git on stats', async () => {
    await fc.assert(
      fc.asyncProperty(initial, fc.array(op, { minLength: 1, maxLength: 8 }), async (start, ops) => {
        const dir = initRepo();
        materialise(dir, start);
        const before = commitAll(dir, 'before');
        materialise(dir, apply(start, ops));
        const after = commitAll(dir, 'after');
        const repo = await openRepo(dir);

        const stats = await getDiffStats(repo, before, after);
        expect(stats.files).toEqual(oracleChanges(dir, before, after));
        expect([stats.insertions, stats.deletions]).toEqual([
          stats.files.reduce((n, f) => n + f.insertions, 0),
          stats.files.reduce((n, f) => n + f.deletions, 0),
        ]);

        const patch = await writeUnifiedDiffToFile(
          repo,
          before,
          after,
          join(tempDir('agentgate-patch-'), 'p.diff'),
        );
        if (treeOf(dir, before) === treeOf(dir, after)) {
          expect(stats.filesChanged).toBe(0);
          expect(patch.bytes).toBe(0);
        } else {
          expect(treeAfterApply(dir, before, patch.path)).toBe(treeOf(dir, after));
        }
      }),
      { numRuns: 25 },
    );
  });
});
