/**
 * The config cache (src/store/config-cache.ts): an agent hook keeps what the config file's text
 * parsed to, and the next process uses it only while the file holds that very text.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigInvalidError } from '../../src/errors.js';
import { configCacheFile, parseConfigCached, saveParsedConfig } from '../../src/store/config-cache.js';
import { resolveSettings } from '../../src/store/config.js';
import { tempHome } from '../helpers/store-fixtures.js';

let home: string;
beforeEach(() => {
  home = tempHome();
});
afterEach(async () => {
  // Nothing of one test's parse is left for the next one to save.
  await saveParsedConfig();
  rmSync(home, { recursive: true, force: true });
});

const TEXT = 'checkpoints:\n  keep: 5\nartifactsDir: out\n';

function cached(): unknown {
  return JSON.parse(readFileSync(configCacheFile(home), 'utf8'));
}

describe('config cache', () => {
  it('a FIFO in place of the cache is a damaged cache: parsed afresh, never waited on', async () => {
    const file = join(home, 'config.yaml');
    mkdirSync(dirname(configCacheFile(home)), { recursive: true });
    execFileSync('mkfifo', [configCacheFile(home)]);
    expect(await parseConfigCached(home, file, TEXT)).toEqual({
      checkpoints: { keep: 5 },
      artifactsDir: 'out',
    });
  });

  it('a parse is kept only when saveParsedConfig is called, with the text and the config as parsed', async () => {
    const file = join(home, 'config.yaml');
    expect(await parseConfigCached(home, file, TEXT)).toEqual({
      checkpoints: { keep: 5 },
      artifactsDir: 'out',
    });
    expect(existsSync(configCacheFile(home))).toBe(false);
    await saveParsedConfig();
    expect(cached()).toEqual({ file, text: TEXT, config: { checkpoints: { keep: 5 }, artifactsDir: 'out' } });
  });

  it('the cached config is used only for the very same text and file', async () => {
    const file = join(home, 'config.yaml');
    await parseConfigCached(home, file, TEXT);
    await saveParsedConfig();
    // A record that says something else than its text shows which one was used.
    writeFileSync(
      configCacheFile(home),
      JSON.stringify({ file, text: TEXT, config: { checkpoints: { keep: 9 } } }),
    );
    expect(await parseConfigCached(home, file, TEXT)).toEqual({ checkpoints: { keep: 9 } });
    expect(await parseConfigCached(home, file, `${TEXT}\n`)).toEqual({
      checkpoints: { keep: 5 },
      artifactsDir: 'out',
    });
    expect(await parseConfigCached(home, join(home, 'other.yaml'), TEXT)).toEqual({
      checkpoints: { keep: 5 },
      artifactsDir: 'out',
    });
  });

  it('a changed text is parsed again: an invalid one is CONFIG_INVALID, never the cached config', async () => {
    const file = join(home, 'config.yaml');
    await parseConfigCached(home, file, TEXT);
    await saveParsedConfig();
    const error = (await parseConfigCached(home, file, 'checkpoints:\n  keep: -1\n').catch(
      (e: unknown) => e,
    )) as ConfigInvalidError;
    expect(error.code).toBe('CONFIG_INVALID');
    // A failed parse leaves nothing to save: the cache still holds the last good text.
    await saveParsedConfig();
    expect(cached()).toMatchObject({ text: TEXT });
  });

  it('a record that does not validate (torn, or a config the schema refuses) is no cache', async () => {
    const file = join(home, 'config.yaml');
    await parseConfigCached(home, file, TEXT);
    await saveParsedConfig();
    for (const bad of ['{"file": ', JSON.stringify({ file, text: TEXT, config: { keep: 'x' } })]) {
      writeFileSync(configCacheFile(home), bad);
      expect(await parseConfigCached(home, file, TEXT)).toEqual({
        checkpoints: { keep: 5 },
        artifactsDir: 'out',
      });
    }
  });

  it('resolveSettings gives the same settings from the cache as from the parse (paths resolved after either)', async () => {
    writeFileSync(join(home, 'config.yaml'), TEXT);
    const parsed = await resolveSettings({ home, env: {} });
    await saveParsedConfig();
    expect(cached()).toMatchObject({ config: { artifactsDir: 'out' } });
    expect(await resolveSettings({ home, env: {} })).toEqual(parsed);
    expect(parsed.artifactsDir).toBe(join(home, 'out'));
  });
});
