/**
 * An anchor and a trace follow from the commit and the records alone: no attribute of this clone
 * (the work tree's, the index's, info/attributes, core.attributesFile, the checked-out commit's
 * .gitattributes) and no local setting that changes what is binary or where a diff puts its lines
 * changes them, so a recorded or fetched anchor recomputes the same anywhere.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { computeTrace } from '../../src/provenance/trace.js';
import {
  commitAll,
  git,
  recordRunsCleanedUp,
  setupCli,
  squash,
  writeFiles,
  type RunSetup,
} from '../helpers/provenance.js';
import { remove } from '../helpers/repo.js';

const run = recordRunsCleanedUp();
const now = new Date('2026-01-01T00:00:00Z');

/** Each way a clone can say a file is binary to git's diff, or move a diff's lines, and its undoing. */
function localSettings(s: RunSetup, path: string): Array<[string, () => void, () => void]> {
  const info = join(s.dir, '.git', 'info', 'attributes');
  const global = join(s.dir, '.git', 'my-attributes');
  return [
    [
      'the work tree',
      () => writeFiles(s.dir, { '.gitattributes': `${path} -diff\n` }),
      () => remove(join(s.dir, '.gitattributes')),
    ],
    [
      'info/attributes',
      () => {
        mkdirSync(join(s.dir, '.git', 'info'), { recursive: true });
        writeFileSync(info, '* binary\n');
      },
      () => remove(info),
    ],
    [
      'core.attributesFile',
      () => {
        writeFileSync(global, `${path} diff=x\n`);
        git(s.dir, ['config', 'core.attributesFile', global]);
        git(s.dir, ['config', 'diff.x.binary', 'true']);
      },
      () => git(s.dir, ['config', '--unset', 'core.attributesFile']),
    ],
    [
      'core.bigFileThreshold',
      () => git(s.dir, ['config', 'core.bigFileThreshold', '10']),
      () => git(s.dir, ['config', '--unset', 'core.bigFileThreshold']),
    ],
    [
      'diff.indentHeuristic',
      () => git(s.dir, ['config', 'diff.indentHeuristic', 'false']),
      () => git(s.dir, ['config', '--unset', 'diff.indentHeuristic']),
    ],
  ];
}

describe('provenance from the commit and the records alone', () => {
  it('attributes and settings of this clone change no anchor and no trace', async () => {
    const agent = 'agent line written by iteration one here\n';
    const s = await run([{ 'a.txt': `base one\nbase two\n${agent}`, 'b.dat': 'x\0y\nline two\n' }], {
      base: { 'a.txt': 'base one\nbase two\n' },
    });
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c, { now });
    expect(anchor.files.map((f) => [f.path, f.method, f.linesAdded, f.linesFromRuns])).toEqual([
      ['a.txt', 'tree', 1, 1],
      // Binary by content (a NUL in its first 8000 bytes): no lines, as documented.
      ['b.dat', 'tree', 0, 0],
    ]);
    const trace = await computeTrace(s.src, s.repo, 'a.txt');
    expect(trace.ranges.map((r) => r.origin?.iteration ?? null)).toEqual([null, 1]);
    for (const [what, set, undo] of [
      ...localSettings(s, 'a.txt'),
      // A file binary by content stays binary whatever says it is text.
      [
        'an attribute that says text',
        () => writeFiles(s.dir, { '.gitattributes': '* diff\n' }),
        () => remove(join(s.dir, '.gitattributes')),
      ],
    ] as const) {
      set();
      expect(await computeAnchor(s.src, s.repo, c, { now }), what).toEqual(anchor);
      expect(await computeTrace(s.src, s.repo, 'a.txt'), what).toEqual(trace);
      undo();
    }
    // A later commit's .gitattributes checked out: the older commit's anchor is as it was.
    writeFiles(s.dir, { '.gitattributes': 'a.txt -diff\n' });
    commitAll(s.dir, 'attributes');
    expect(await computeAnchor(s.src, s.repo, c, { now })).toEqual(anchor);
    expect(await computeTrace(s.src, s.repo, 'a.txt', { rev: c })).toEqual({ ...trace, rev: c });
    // The CLI's recomputation agrees: the anchor recorded before still verifies.
    git(s.dir, ['checkout', '-q', c]);
    expect(setupCli(s, ['anchor', c]).status).toBe(0);
    git(s.dir, ['checkout', '-q', 'main']);
    writeFiles(s.dir, { 'untracked/.gitattributes': '*.txt -diff\n' });
    writeFiles(s.dir, { '.gitattributes': '*.txt -diff\n' });
    expect(setupCli(s, ['verify', '--anchor', c]).status).toBe(0);
  });

  it('where a diff places a run’s lines follows git’s defaults, not the repository’s diff settings', async () => {
    const base = '1\n2\nalpha\n\nbeta\n3\n4\n';
    const s = await run([{ 'u.txt': '1\n2\nalpha\n\nbeta\nalpha\n\nbeta\n3\n4\n' }], {
      base: { 'u.txt': base },
    });
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    const spans = async (shortcut: boolean) =>
      (await computeTrace(s.src, s.repo, 'u.txt', { shortcut })).ranges.map((r) => [
        r.start,
        r.end,
        r.origin?.iteration ?? null,
      ]);
    const expected = [
      [1, 4, null],
      [5, 7, 1],
      [8, 10, null],
    ];
    for (const [what, set, undo] of localSettings(s, 'u.txt')) {
      set();
      for (const shortcut of [true, false])
        expect(await spans(shortcut), `${what} ${shortcut}`).toEqual(expected);
      undo();
    }
  });
});
