/** History as the commits say it, whatever else the clone holds: a planted commit-graph changes no answer. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { commitAll, git, recordRunsCleanedUp, writeFiles } from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

/**
 * Rewrites `.git/objects/info/commit-graph` (SHA-1, as `git commit-graph write` made it) so that
 * git reads `child`'s first parent as `parent`: the commit objects are untouched.
 */
function plantParent(dir: string, child: string, parent: string): void {
  const file = join(dir, '.git', 'objects', 'info', 'commit-graph');
  const b = readFileSync(file);
  const chunks = new Map<string, number>();
  for (let i = 0; i <= (b[6] as number); i++) {
    const at = 8 + 12 * i;
    chunks.set(b.toString('latin1', at, at + 4), Number(b.readBigUInt64BE(at + 4)));
  }
  const fanout = chunks.get('OIDF') as number;
  const count = b.readUInt32BE(fanout + 255 * 4);
  const ids = Array.from({ length: count }, (_, i) => {
    const at = (chunks.get('OIDL') as number) + 20 * i;
    return b.toString('hex', at, at + 20);
  });
  const entry = (chunks.get('CDAT') as number) + 36 * ids.indexOf(child);
  b.writeUInt32BE(ids.indexOf(parent), entry + 20);
  writeFileSync(file, b);
}

describe('a planted commit-graph', () => {
  it("cannot make a person's line the run's: trace and anchor read the parents the commits name", async () => {
    const s = await run([{ 'x.txt': 'ok\n', 'y.txt': 'the agent wrote this other file\n' }]);
    writeFiles(s.dir, { 'x.txt': 'ok\n', 'p.txt': 'mine\n' });
    const person = commitAll(s.dir, "a person's own short line");
    const before = await computeTrace(s.src, s.repo, 'x.txt', { rev: person });
    expect(before.ranges).toEqual([expect.objectContaining({ commit: person, origin: null })]);
    git(s.dir, ['commit-graph', 'write', '--reachable']);
    plantParent(s.dir, person, s.snapshots[0]?.afterSha as string);
    // git itself now believes the run's after commit is the person's parent.
    expect(git(s.dir, ['log', '-1', '--format=%P', person])).toBe(s.snapshots[0]?.afterSha);
    expect(await computeTrace(s.src, s.repo, 'x.txt', { rev: person })).toEqual(before);
    const anchor = await computeAnchor(s.src, s.repo, person);
    expect(anchor.files.find((f) => f.path === 'x.txt')).toMatchObject({ method: 'none', origins: [] });
  });
});
