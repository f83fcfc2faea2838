import { describe, expect, it } from 'vitest';
import {
  describeLimit,
  formatMarkdownTable,
  formatMs,
  formatRatio,
  formatTable,
  median,
  parseCount,
  parseSizes,
  parseTimeVerbose,
  ratio,
  rotate,
  verdict,
} from '../../bench/measure.js';
import { subcommand } from '../../bench/trace.js';

describe('bench statistics', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it("does not reorder the caller's array", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('gives ratios to two decimals and NaN without a usable base', () => {
    expect(ratio(115, 100)).toBe(1.15);
    expect(ratio(1, 3)).toBe(0.33);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 1)).toBeNaN();
  });

  it('rotates the running order by repetition', () => {
    expect(rotate(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(rotate(['a', 'b', 'c'], -1)).toEqual(['c', 'a', 'b']);
    expect(rotate(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
    expect(rotate([], 2)).toEqual([]);
  });
});

describe('bench targets', () => {
  it('passes, fails or skips', () => {
    expect(verdict({ name: 't', comparison: 'at-most', limit: 1.15, unit: 'x', actual: 1.15 })).toBe('PASS');
    expect(verdict({ name: 't', comparison: 'at-most', limit: 1.15, unit: 'x', actual: 1.16 })).toBe('FAIL');
    expect(verdict({ name: 't', comparison: 'below', limit: 150, unit: 'MiB', actual: 150 })).toBe('FAIL');
    expect(verdict({ name: 't', comparison: 'at-least', limit: 10, unit: 'x', actual: 12 })).toBe('PASS');
    expect(verdict({ name: 't', comparison: 'at-least', limit: 10, unit: 'x', actual: null })).toBe('SKIP');
  });

  it('describes limits for people', () => {
    expect(describeLimit({ comparison: 'at-most', limit: 1.3, unit: 'x' })).toBe('<= 1.3x');
    expect(describeLimit({ comparison: 'below', limit: 150, unit: 'MiB' })).toBe('< 150 MiB');
  });
});

describe('bench formatting', () => {
  it('pads columns and right-aligns numeric ones', () => {
    const text = formatTable(
      ['case', 'ms'],
      [
        ['a', '5.0'],
        ['longer', '120'],
      ],
    );
    expect(text.split('\n')).toEqual(['case     ms', '------  ---', 'a       5.0', 'longer  120']);
  });

  it('writes markdown with escaped pipes', () => {
    expect(formatMarkdownTable(['a', 'b'], [['x|y', '1']])).toBe('| a | b |\n| --- | --- |\n| x\\|y | 1 |');
  });

  it('formats milliseconds and ratios', () => {
    expect(formatMs(12.345)).toBe('12.3');
    expect(formatMs(1234.5)).toBe('1235');
    expect(formatMs(Number.NaN)).toBe('-');
    expect(formatRatio(1.1)).toBe('1.10x');
    expect(formatRatio(Number.NaN)).toBe('-');
  });
});

describe('bench inputs', () => {
  it('reads sizes and counts from the environment', () => {
    expect(parseSizes(undefined, [1, 2])).toEqual([1, 2]);
    expect(parseSizes('1000, 10_000', [])).toEqual([1000, 10000]);
    expect(() => parseSizes('10,abc', [])).toThrow();
    expect(parseCount('', 5, 'N')).toBe(5);
    expect(parseCount('3', 5, 'N')).toBe(3);
    expect(() => parseCount('0', 5, 'N')).toThrow();
  });

  it('reads the peak from /usr/bin/time -v', () => {
    const stderr =
      '\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.52\n\tMaximum resident set size (kbytes): 414448\n';
    expect(parseTimeVerbose(stderr)).toEqual({ maxRssBytes: 414448 * 1024, elapsed: '0:01.52' });
    expect(parseTimeVerbose('no report')).toBeNull();
  });

  it('finds the git subcommand behind -c pairs and options', () => {
    expect(subcommand(['-c', 'core.hooksPath=/dev/null', '--git-dir=/x', 'add', '-A'])).toBe('add');
    expect(subcommand(['--no-optional-locks', 'status'])).toBe('status');
    expect(subcommand(['-c', 'a=b'])).toBe('?');
  });
});
