/**
 * YAML's explicit types that are not JSON's (`!!omap`, `!!set`, `!!timestamp`, `!!binary`): the parser
 * makes a Map, a Set, a Date or bytes of them, which the schema took for an empty mapping, so
 * `checkpoints: !!omap [keep: 5]` was accepted and its settings silently dropped. They are
 * CONFIG_INVALID naming the key. A mapping used as a key is refused without a Node warning on stderr.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigInvalidError } from '../../src/errors.js';
import { loadConfig } from '../../src/store/config.js';
import { tempHome } from '../helpers/store-fixtures.js';

let home: string;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(home, { recursive: true, force: true });
});

async function issueKeys(text: string): Promise<Array<string | null>> {
  writeFileSync(join(home, 'config.yaml'), text);
  const error = (await loadConfig({ home }).catch((e: unknown) => e)) as ConfigInvalidError;
  expect(error.code).toBe('CONFIG_INVALID');
  return (error.details.issues as Array<{ key: string | null }>).map((i) => i.key);
}

describe('YAML types that are not JSON types', () => {
  it.each([
    ['an !!omap', 'checkpoints: !!omap [keep: 5]\n', 'checkpoints'],
    ['a !!set', 'checkpoints: !!set {keep}\n', 'checkpoints'],
    ['an !!omap under YAML 1.1', '%YAML 1.1\n---\nhooks: !!omap [timeoutMs: 10]\n', 'hooks'],
    ['an !!omap identity', 'identity: !!omap [name: a, email: b@c]\n', 'identity'],
    ['a !!timestamp', 'gitTimeoutMs: !!timestamp 2001-12-14\n', 'gitTimeoutMs'],
    ['a !!binary', 'artifactsDir: !!binary YWJj\n', 'artifactsDir'],
    ['an !!omap at the top', '--- !!omap\n- onDirty: error\n', null],
  ])('%s is CONFIG_INVALID naming its key', async (_label, text, key) => {
    expect(await issueKeys(text)).toEqual([key]);
  });

  it('a mapping as a key: CONFIG_INVALID, and no warning printed', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect((await issueKeys('? {a: 1}\n: 1\n')).length).toBe(1);
    expect(warn).not.toHaveBeenCalled();
  });
});
