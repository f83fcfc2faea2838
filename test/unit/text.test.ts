/** firstChars: labels and log lines cut where a character ends, never inside a surrogate pair or a cluster. */
import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../../src/checkpoints/message.js';
import { firstChars } from '../../src/text.js';

describe('firstChars', () => {
  it('counts code points and keeps a text that fits whole', () => {
    expect(firstChars('a'.repeat(60), 60)).toEqual({ text: 'a'.repeat(60), cut: false });
    expect(firstChars('😀'.repeat(60), 60)).toEqual({ text: '😀'.repeat(60), cut: false });
    expect(firstChars('a'.repeat(61), 60)).toEqual({ text: 'a'.repeat(60), cut: true });
  });

  it('never leaves half a surrogate pair', () => {
    const cut = firstChars(`${'a'.repeat(59)}😀tail`, 60);
    expect(cut).toEqual({ text: `${'a'.repeat(59)}😀`, cut: true });
    expect(cut.text.isWellFormed()).toBe(true);
    expect(firstChars('😀😀😀', 2).text).toBe('😀😀');
  });

  it('does not part an accent, a joined emoji or a flag from what it belongs to', () => {
    expect(firstChars('e\u0301'.repeat(40), 61).text).toBe('e\u0301'.repeat(30));
    expect(firstChars('x👩‍💻y', 2).text).toBe('x');
    expect(firstChars('x👩‍💻y', 3).text).toBe('x');
    expect(firstChars('x👍🏽y', 2).text).toBe('x');
    expect(firstChars('🇫🇷🇩🇪', 3).text).toBe('🇫🇷');
    // One long cluster: cut where the count says, still on a code point.
    expect(firstChars(`a${'\u0301'.repeat(10)}`, 3).text).toBe('a\u0301\u0301');
  });

  it("a checkpoint commit's subject keeps whole characters", () => {
    const subject = encodeMessage({
      label: `${'b'.repeat(71)}😀 and more`,
      createdAt: '2026-01-01T00:00:00.000Z',
      kind: 'track',
    }).split('\n')[0] as string;
    expect(subject).toBe(`agentgate checkpoint: ${'b'.repeat(71)}😀`);
  });
});
