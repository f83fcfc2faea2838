/**
 * Anchors that travel (refs/agentgate/anchors/<commit>) through the built CLI, on real git with a
 * bare remote and a bundle: a round trip where `verify --anchor` passes on the receiving machine;
 * forged anchors fetched from a remote are refused (and said on stderr) while everything else
 * lands; publishing never overwrites another machine's anchor; repeated commands are harmless.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Anchor } from '../../types/anchor.js';
import type { ReceiveResult } from '../../types/sharing.js';
import { anchorObjects } from '../../src/sharing/anchor-objects.js';
import { commitAll, git, gitRaw, writeFiles } from '../helpers/repo.js';
import { machineCli as cli, machineOk as ok, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** Machine a records run r1 (two iterations on main), a person commits on top; both commits are anchored. */
function recordAndAnchor(a: Machine): { x: string; y: string } {
  ok(a, ['before', '--run', 'r1']);
  writeFiles(a.dir, { 'src/app.txt': 'one\ntwo\nthree\nfour\n', 'lib.txt': 'l1\nl2\n' });
  ok(a, ['after', '--run', 'r1', '--iteration', '1']);
  ok(a, ['before', '--run', 'r1']);
  writeFiles(a.dir, { 'lib.txt': 'l1\nl2\nl3\nl4\n' });
  const x = (ok(a, ['after', '--run', 'r1', '--iteration', '2']) as { afterSha: string }).afterSha;
  writeFiles(a.dir, { 'NOTES.md': 'written by a person\n' });
  const y = commitAll(a.dir, 'a person');
  ok(a, ['anchor', '--range', `${x}~1..${y}`]);
  return { x, y };
}

function recordedAnchor(m: Machine, commit: string): Anchor {
  return JSON.parse(readFileSync(join(m.home, 'anchors', `${commit}.json`), 'utf8')) as Anchor;
}

/** Writes an anchor commit into a bare repository exactly as this version would (so only its content is wrong). */
function plantAnchor(repo: string, ref: string, anchor: Anchor): string {
  const o = anchorObjects('sha1', anchor);
  expect(gitRaw(repo, ['hash-object', '-w', '-t', 'blob', '--stdin'], o.json.content).toString().trim()).toBe(
    o.json.id,
  );
  expect(gitRaw(repo, ['hash-object', '-w', '-t', 'tree', '--stdin'], o.tree.content).toString().trim()).toBe(
    o.tree.id,
  );
  expect(
    gitRaw(repo, ['hash-object', '-w', '-t', 'commit', '--stdin'], o.commit.content).toString().trim(),
  ).toBe(o.commit.id);
  git(repo, ['update-ref', ref, o.commit.id]);
  return o.commit.id;
}

/** An anchor commit holding `content` as anchor.json, made by hand (not as this version writes it). */
function plantRaw(repo: string, ref: string, parent: string, content: string): void {
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: content });
  const tree = git(repo, ['mktree'], { input: `100644 blob ${blob}\tanchor.json\n` });
  git(repo, ['update-ref', ref, git(repo, ['commit-tree', tree, '-p', parent, '-m', 'forged'])]);
}

describe('anchors that travel', () => {
  it('push and fetch, export and import: kept, verify --anchor passes there, repeats are harmless', () => {
    w = world();
    const [a, b, c] = [w.machine('a'), w.machine('b'), w.machine('c')];
    const { x, y } = recordAndAnchor(a);
    const pushed = ok(a, ['push']) as { anchors: string[]; runs: string[] };
    expect(pushed).toMatchObject({ runs: ['r1'], anchors: [x, y].sort() });
    expect(git(w.origin, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/anchors/'])).toBe(
      [x, y]
        .sort()
        .map((s) => `refs/agentgate/anchors/${s}`)
        .join('\n'),
    );
    const fetched = ok(b, ['fetch']) as ReceiveResult;
    expect(fetched).toMatchObject({ runs: ['r1'], snapshots: 2, anchors: [x, y].sort(), refused: [] });
    for (const commit of [x, y]) expect(ok(b, ['verify', '--anchor', commit])).toMatchObject({ ok: true });
    expect(recordedAnchor(b, x)).toEqual(recordedAnchor(a, x));
    // Repeated: nothing new, nothing refused, the remote says up to date.
    expect(ok(b, ['fetch'])).toMatchObject({ snapshots: 0, anchors: [], refused: [] });
    // A new home on b: the refs are here already, so nothing is fetched, but each anchor is checked and stored again.
    const fresh = { ...b, home: join(w.root, 'b-home-2') };
    expect(ok(fresh, ['fetch'])).toMatchObject({ runs: ['r1'], anchors: [x, y].sort(), refused: [] });
    expect(ok(fresh, ['verify', '--anchor', x])).toMatchObject({ ok: true });
    const again = ok(a, ['push']) as { updated: string[]; upToDate: string[] };
    expect(again.updated).toEqual([]);
    expect(again.upToDate).toContain(`refs/agentgate/anchors/${x}`);

    const bundle = join(w.root, 'audit.bundle');
    expect(ok(a, ['export', '-o', bundle])).toMatchObject({ runs: ['r1'], anchors: [x, y].sort() });
    expect(ok(c, ['import', bundle])).toMatchObject({ runs: ['r1'], anchors: [x, y].sort(), refused: [] });
    expect(ok(c, ['verify', '--anchor', y])).toMatchObject({ ok: true });
    expect(ok(c, ['import', bundle])).toMatchObject({ snapshots: 0, anchors: [], refused: [] });
    // report --anchor on the receiving machine: the anchor it kept, as json, dotenv and a file.
    expect(ok(c, ['report', '--anchor', x, '--format', 'json'])).toMatchObject({
      kind: 'anchor',
      commit: x,
      recorded: 'same',
      runs: [{ runId: 'r1', iterations: [2] }],
    });
    const env = ok(c, ['report', '--anchor', y, '--format', 'dotenv']) as { text: string };
    expect(env.text).toContain(`AGENTGATE_ANCHOR_COMMIT=${y}\n`);
    expect(env.text).toContain('AGENTGATE_ANCHOR_LINES_FROM_RUNS=0\n');
    const page = join(w.root, 'anchor.html');
    expect(ok(c, ['report', '--anchor', x, '-o', page])).toMatchObject({
      file: page,
      format: 'html',
      commit: x,
    });
    expect(readFileSync(page, 'utf8')).toMatch(/^<!doctype html>/);
    expect(cli(c, ['report', '--anchor', x, '--run', 'r1', '--json']).status).toBe(2);

    // Only anchors, or none.
    const onlyAnchors = join(w.root, 'anchors.bundle');
    expect(ok(a, ['export', '--anchors', 'only', '-o', onlyAnchors])).toMatchObject({
      runs: [],
      anchors: [x, y].sort(),
    });
    expect(ok(a, ['export', '--anchors', 'none', '-o', join(w.root, 'runs.bundle')])).toMatchObject({
      runs: ['r1'],
      anchors: [],
    });
  });

  it('an honest anchor is kept by a clone whose own attributes and settings would make its files binary', () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    const { x, y } = recordAndAnchor(a);
    ok(a, ['push']);
    mkdirSync(join(b.dir, '.git', 'info'), { recursive: true });
    writeFileSync(join(b.dir, '.git', 'info', 'attributes'), '*.txt -diff\n');
    writeFiles(b.dir, { '.gitattributes': '* binary\n' });
    git(b.dir, ['config', 'core.bigFileThreshold', '4']);
    expect(ok(b, ['fetch'])).toMatchObject({ anchors: [x, y].sort(), refused: [] });
    for (const commit of [x, y]) expect(ok(b, ['verify', '--anchor', commit])).toMatchObject({ ok: true });
  });

  it('forged anchors from a remote are refused, with the reason on stderr; the rest lands', () => {
    w = world();
    const [a, d] = [w.machine('a'), w.machine('d')];
    const { x, y } = recordAndAnchor(a);
    ok(a, ['push']);
    const evil = join(w.root, 'evil.git');
    git(w.root, ['clone', '-q', '--mirror', w.origin, evil]);
    git(d.dir, ['remote', 'add', 'evil', evil]);
    const honest = recordedAnchor(a, x);
    expect(honest.files.some((f) => f.origins.some((o) => o.iteration === 2))).toBe(true);
    const ref = `refs/agentgate/anchors/${x}`;
    const forgeries: Array<[string, () => void, RegExp]> = [
      [
        'wrong iteration',
        () =>
          plantAnchor(evil, ref, {
            ...honest,
            files: honest.files.map((f) => ({
              ...f,
              origins: f.origins.map((o) => ({ ...o, iteration: o.iteration === 2 ? 1 : o.iteration })),
            })),
          }),
        /recompute/,
      ],
      [
        'extra run',
        () =>
          plantAnchor(evil, ref, { ...honest, runs: [...honest.runs, { runId: 'ghost', iterations: [1] }] }),
        /recompute/,
      ],
      [
        'tampered coverage',
        () =>
          plantAnchor(evil, ref, {
            ...honest,
            coverage: { ...honest.coverage, linesFromRuns: honest.coverage.linesAdded + 3 },
          }),
        /recompute/,
      ],
      ['invalid JSON', () => plantRaw(evil, ref, x, '{"format": "agentgate-anchor/1", '), /not JSON/],
      [
        'not as this version writes it',
        () => plantRaw(evil, ref, x, JSON.stringify({ format: 'agentgate-anchor/1', anchor: honest })),
        /not the one this version writes/,
      ],
    ];
    let first = true;
    for (const [what, plant, reason] of forgeries) {
      plant();
      const res = cli(d, ['fetch', '--remote', 'evil', '--json']);
      expect(res.status, `${what}: ${res.stderr}`).toBe(0);
      const got = res.json() as ReceiveResult;
      expect(got.refused, what).toEqual([{ ref, reason: expect.stringMatching(reason) }]);
      expect(res.stderr, what).toContain(`refused ${ref}`);
      // The run records and the honest anchor still land (once), the forged one is kept nowhere.
      if (first) expect(got).toMatchObject({ runs: ['r1'], snapshots: 2, anchors: [y] });
      else expect(got).toMatchObject({ snapshots: 0, anchors: [] });
      first = false;
      expect(git(d.dir, ['for-each-ref', '--format=%(refname)', ref])).toBe('');
      expect(cli(d, ['verify', '--anchor', x, '--json']).status, what).toBe(1);
      expect(ok(d, ['verify', '--anchor', y])).toMatchObject({ ok: true });
    }
    // A ref whose name is not a commit id is refused by name, before anything is fetched.
    git(evil, ['update-ref', 'refs/agentgate/anchors/not-a-commit', git(w.origin, ['rev-parse', ref])]);
    const named = ok(d, ['fetch', '--remote', 'evil']) as ReceiveResult;
    expect(named.refused).toContainEqual({
      ref: 'refs/agentgate/anchors/not-a-commit',
      reason: expect.stringMatching(/not an anchor ref name/),
    });
    // The honest anchor from origin is then kept.
    expect(ok(d, ['fetch'])).toMatchObject({ anchors: [x], refused: [] });
    expect(ok(d, ['verify', '--anchor', x])).toMatchObject({ ok: true });
  });

  it("publishing never overwrites another machine's anchor of a commit", () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    const { x, y } = recordAndAnchor(a);
    ok(a, ['push']);
    const before = git(w.origin, ['rev-parse', `refs/agentgate/anchors/${y}`]);
    // --run: only the anchors naming that run (y names none: a person's commit).
    expect(ok(b, ['fetch', '--run', 'r1'])).toMatchObject({ runs: ['r1'], anchors: [x], refused: [] });
    expect(ok(b, ['fetch'])).toMatchObject({ anchors: [y], refused: [] });
    // b anchors the same commit narrowed to one run: another anchor, which the remote must not take.
    ok(b, ['anchor', y, '--run', 'r1']);
    const res = cli(b, ['push', '--anchors', 'only', '--json']);
    expect(res.status).toBe(1);
    expect((res.json() as { error: { code: string } }).error.code).toBe('PUSH_REJECTED');
    expect(git(w.origin, ['rev-parse', `refs/agentgate/anchors/${y}`])).toBe(before);
  });
});
