import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CommitInfo } from '../../types/snapshot.js';
import { parseCommitObject } from '../../src/git/commit-info.js';

const SHA = 'a'.repeat(40);
const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../../fixtures/git-output/commit-object-${name}.bin`, import.meta.url));

describe('parseCommitObject (canned git output)', () => {
  it('reads a root commit: no parents, full message, date in the author offset', () => {
    const info = parseCommitObject(SHA, fixture('root'));
    expect(info).toEqual({
      sha: SHA,
      message: 'Root commit\n\nWith a body\nof two lines.',
      author: 'Fixture Author <author@example.com>',
      date: '2024-03-01T12:00:00+01:00',
      parents: [],
    });
    expect(CommitInfo.safeParse(info).success).toBe(true);
  });

  it('keeps every parent of an octopus merge, in order', () => {
    const info = parseCommitObject(SHA, fixture('octopus'));
    expect(info.parents).toHaveLength(3);
    expect(info.parents.every((p) => /^[0-9a-f]{40}$/.test(p))).toBe(true);
    expect(info.message).toBe('Merge three parents');
  });

  it('skips a multi-line signature header and does not read the body as headers', () => {
    const info = parseCommitObject(SHA, fixture('signed'));
    expect(info.parents).toHaveLength(1);
    expect(info.author).toBe('Signer <s@example.com>');
    expect(info.date).toBe('2024-03-01T06:30:00-05:30');
    expect(info.message).toBe('Signed subject\n\nparent fake-looking line in the body');
  });

  it('decodes a commit in its declared encoding', () => {
    const info = parseCommitObject(SHA, fixture('latin1'));
    expect(info.author).toBe('José <j@example.com>');
    expect(info.message).toBe('Café crème');
    expect(info.date).toBe('2024-03-01T12:00:00+00:00');
  });

  it('reads a message without a final newline, and an empty message', () => {
    expect(parseCommitObject(SHA, fixture('no-newline')).message).toBe('no newline at end');
    const empty = parseCommitObject(SHA, fixture('empty-message'));
    expect(empty).toMatchObject({ message: '', author: ' <>', date: '1970-01-01T00:00:00+00:00' });
  });

  it('rejects a commit without an author, or with a bad parent id', () => {
    expect(() => parseCommitObject(SHA, Buffer.from('tree x\n\nmsg\n'))).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
    expect(() => parseCommitObject(SHA, Buffer.from('parent 123\nauthor a <b> 0 +0000\n\nm\n'))).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});
