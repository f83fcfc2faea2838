/** types/zod.ts's deferred: a schema built on first use that composes and parses as the schema itself. */
import { describe, expect, it } from 'vitest';
import * as z from '../../types/zod.js';
import { deferred } from '../../types/zod.js';
import { Config } from '../../types/config.js';

describe('deferred schemas', () => {
  it('are built on first use, once', () => {
    let builds = 0;
    const Name = deferred(() => {
      builds++;
      return z.string().check(z.minLength(1));
    });
    expect(builds).toBe(0);
    expect(Name.safeParse('x').success).toBe(true);
    expect(Name.safeParse('').success).toBe(false);
    expect(builds).toBe(1);
  });

  it('compose, parse and report issues exactly as the schema they defer', () => {
    const build = () =>
      z.strictObject({
        name: z.string().check(z.minLength(1)),
        kind: z.optional(z.enum(['a', 'b'])),
      });
    const eager = z.array(build());
    const lazy = z.array(deferred(build));
    for (const input of [
      [{ name: 'x', kind: 'a' }],
      [{ name: '' }],
      [{ name: 'x', extra: 1 }],
      [{ kind: 'c' }],
      'no',
    ]) {
      const [a, b] = [eager.safeParse(input), lazy.safeParse(input)];
      expect(b.success, JSON.stringify(input)).toBe(a.success);
      expect(b.error?.issues, JSON.stringify(input)).toEqual(a.error?.issues);
    }
    expect(Object.keys(deferred(build).shape)).toEqual(['name', 'kind']);
  });

  it('the schemas in types/ are deferred ones and still validate (the config file)', () => {
    expect(Config.safeParse({ onDirty: 'error', checkpoints: { keep: 3 } }).success).toBe(true);
    const bad = Config.safeParse({ onDirty: 'sometimes' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['onDirty']);
  });
});
