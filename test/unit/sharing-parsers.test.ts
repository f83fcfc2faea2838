/** Pure parts of sharing: URL checks, git output parsers, record names and record object ids. */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { objectId, parseRefsWithParents, treeContent } from '../../src/git/record-objects.js';
import { checkRemoteUrl, rewrittenUrl } from '../../src/git/remote.js';
import { parseLsRemote, parsePushPorcelain } from '../../src/git/transport.js';
import { parseRecordRef, recordObjects } from '../../src/sharing/records.js';
import { RecordFile, RECORD_FORMAT } from '../../types/sharing.js';
import { gitRaw, initRepo } from '../helpers/repo.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('rewrittenUrl: url.<base>.insteadOf as git applies it', () => {
  const rules = [
    { key: 'url.https://mirror/.insteadof', value: 'gh:' },
    { key: 'url.ssh://long/.insteadOf', value: 'gh:org/' },
    { key: 'url.ext::sh -c x% #.pushinsteadof', value: 'gh:' },
  ];
  it.each([
    ['gh:org/repo', 'fetch', 'ssh://long/repo'],
    ['gh:other', 'fetch', 'https://mirror/other'],
    ['gh:org/repo', 'push', 'ext::sh -c x% #org/repo'],
    ['other:x', 'push', 'other:x'],
  ] as const)('%s for a %s is %s', (url, direction, used) => {
    expect(rewrittenUrl(url, rules, direction)).toBe(used);
  });

  it('an empty prefix matches every URL; between equal prefixes the base whose section came first wins', () => {
    expect(rewrittenUrl('/srv/r.git', [{ key: 'url.ext::x.insteadof', value: '' }], 'fetch')).toBe(
      'ext::x/srv/r.git',
    );
    const tie = [
      { key: 'url.ext::x.insteadof', value: 'zz' },
      { key: 'url.https://h/.insteadof', value: '/tmp/' },
      { key: 'url.ext::x.insteadof', value: '/tmp/' },
    ];
    expect(rewrittenUrl('/tmp/r', tie, 'fetch')).toBe('ext::xr');
  });
});

describe('checkRemoteUrl', () => {
  it.each([
    ['/srv/git/repo.git', 'local'],
    ['../repo', 'local'],
    ['file:///srv/repo.git', 'file'],
    ['https://github.com/o/r.git', 'https'],
    ['git://example.com/r.git', 'git'],
    ['ssh://git@example.com/r.git', 'ssh'],
    ['git@github.com:o/r.git', 'ssh'],
    // git's url_is_local_not_ssh: a colon with no slash before it, even first, is scp-like ssh.
    [':r.git', 'ssh'],
    ['./a:b', 'local'],
  ])('accepts %s as %s', (url, kind) => {
    expect(checkRemoteUrl(url)).toBe(kind);
  });

  it.each([
    'ext::sh -c id',
    'fd::3',
    'EXT::x',
    // git's helper rule: [A-Za-z0-9][A-Za-z0-9+.-]* (or nothing) before "::"; schemes are case-sensitive.
    '1x::foo',
    '::foo',
    '1x://foo',
    'HTTPS://example.com/r.git',
    'FILE:///srv/r.git',
    'http://example.com/r.git',
    'ftp://x/r',
    '-upload-pack=x',
    '',
    'file:///a\nb',
    // An ssh host or path that ssh would take for an option (git blocks it: "strange hostname").
    'ssh://-oProxyCommand=touch${IFS}x/r.git',
    'git+ssh://-x/r.git',
    'host:-r.git',
  ])('refuses %j with REMOTE_UNSAFE', (url) => {
    expect(() => checkRemoteUrl(url)).toThrow(expect.objectContaining({ code: 'REMOTE_UNSAFE' }));
  });
});

describe('parsers', () => {
  it('parses git push --porcelain', () => {
    const out = `To /srv/origin.git\n*\trefs/agentgate/records/r/iteration-1:refs/agentgate/records/r/iteration-1\t[new reference]\n=\trefs/agentgate/records/r/iteration-0:refs/agentgate/records/r/iteration-0\t[up to date]\n!\trefs/agentgate/records/s/iteration-0:refs/agentgate/records/s/iteration-0\t[rejected] (non-fast-forward)\nDone\n`;
    expect(parsePushPorcelain(out)).toEqual([
      { flag: '*', ref: 'refs/agentgate/records/r/iteration-1', summary: '[new reference]' },
      { flag: '=', ref: 'refs/agentgate/records/r/iteration-0', summary: '[up to date]' },
      { flag: '!', ref: 'refs/agentgate/records/s/iteration-0', summary: '[rejected] (non-fast-forward)' },
    ]);
  });

  it('parses ls-remote and drops malformed lines', () => {
    expect(parseLsRemote(`${A}\trefs/agentgate/records/r/iteration-0\nnoise\n${B}\trefs/x y\n`)).toEqual([
      { sha: A, ref: 'refs/agentgate/records/r/iteration-0' },
    ]);
  });

  it('parses for-each-ref with parents', () => {
    expect(
      parseRefsWithParents(
        `${A} commit refs/agentgate/records/r/iteration-0 ${B}\n${B} tree refs/agentgate/records/t/iteration-0 \n`,
      ),
    ).toEqual([
      { sha: A, type: 'commit', ref: 'refs/agentgate/records/r/iteration-0', parents: [B] },
      { sha: B, type: 'tree', ref: 'refs/agentgate/records/t/iteration-0', parents: [] },
    ]);
  });

  it('reads record ref names, refusing everything else', () => {
    const p = 'refs/agentgate/incoming/';
    expect(parseRecordRef(`${p}run-1/iteration-12`, p)).toEqual({ runId: 'run-1', iteration: 12 });
    for (const bad of [
      '-x/iteration-0',
      'a/b/iteration-0',
      'r/iteration-01',
      'r/iteration-',
      'r/other',
      'r..s/iteration-0',
      'r.lock/iteration-0',
    ]) {
      expect(parseRecordRef(`${p}${bad}`, p)).toBeNull();
    }
    expect(parseRecordRef('refs/heads/main', p)).toBeNull();
  });
});

describe('record objects', () => {
  it('computes the ids git gives the blob, tree and commit', () => {
    const record = RecordFile.parse({
      format: RECORD_FORMAT,
      snapshot: {
        id: 'snap-1',
        runId: 'r',
        iteration: 0,
        beforeSha: A,
        afterSha: B,
        branch: 'main',
        commitMessage: '',
        patchSha256: null,
        filesChanged: 0,
        insertions: 0,
        deletions: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        files: [],
        task: 'τask',
        gate: null,
      },
      workspace: '/w',
      patch: null,
      run: { createdAt: '2026-01-01T00:00:00.000Z', before: null },
    });
    const objects = recordObjects('sha1', record);
    const dir = initRepo();
    try {
      const hash = (type: string, content: Buffer) =>
        gitRaw(dir, ['hash-object', '--literally', '-t', type, '--stdin'], content).toString().trim();
      expect(hash('blob', objects.json.content)).toBe(objects.json.id);
      expect(hash('tree', objects.tree.content)).toBe(objects.tree.id);
      expect(hash('commit', objects.commit.content)).toBe(objects.commit.id);
      expect(recordObjects('sha1', record).commit.id).toBe(objects.commit.id);
      expect(objectId('sha1', 'blob', Buffer.from(''))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
      expect(
        treeContent([
          { name: 'b', blob: A },
          { name: 'a', blob: B },
        ])
          .subarray(0, 9)
          .toString(),
      ).toBe('100644 a\0');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
