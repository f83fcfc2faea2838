import { join } from 'node:path';
import type { Config } from '../../types/config.js';
import { ConfigCacheRecord } from '../../types/config-cache.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { readJsonText } from './json-file.js';
import { layout } from './paths.js';

/**
 * The config file's parsed form, kept in `<home>/cache/config.json` with the text it came from, so
 * that an agent hook (one process per event) does not load and run the YAML parser every time: a
 * sixth of the CLI's code, and some 10 ms of a hook event (measured, bench hook-agent). The parse
 * is a function of the text alone, so the cached form is used only while the file holds that very
 * text, byte for byte, and a record that does not validate is no cache at all. It is written only
 * by a hook that recorded a checkpoint (see saveParsedConfig): a command that fails or only reads
 * leaves the home as it found it.
 */

/** Where the cache lives under a home. */
export function configCacheFile(home: string): string {
  return join(layout(home).cache, 'config.json');
}

/** The last parse that did not come from the cache, until saveParsedConfig keeps it. */
let unsaved: { home: string; record: ConfigCacheRecord } | null = null;

/** The config in `text` (read from `file`), from `home`'s cache when it holds this text; CONFIG_INVALID as parseConfig. */
export async function parseConfigCached(home: string, file: string, text: string): Promise<Config> {
  const cached = await readRecord(home);
  if (cached !== null && cached.file === file && cached.text === text) return cached.config;
  // The yaml parser is loaded only here: most runs have no config file, and a hook has it cached.
  const { parseConfig } = await import('./config-parse.js');
  const config = parseConfig(file, text);
  unsaved = { home, record: { file, text, config: structuredClone(config) } };
  return config;
}

/**
 * Keeps the last config parsed in this process for the next one. Best effort: a cache that
 * cannot be written only costs the next hook the parse. Called by an agent hook once it recorded
 * a checkpoint.
 */
export async function saveParsedConfig(): Promise<void> {
  const save = unsaved;
  unsaved = null;
  if (save !== null) await writeJsonAtomic(configCacheFile(save.home), save.record).catch(() => undefined);
}

async function readRecord(home: string): Promise<ConfigCacheRecord | null> {
  try {
    // Never blocks: a FIFO in its place is a damaged cache, and the config is parsed afresh.
    const text = await readJsonText(configCacheFile(home), 'config cache');
    const parsed = text === null ? null : ConfigCacheRecord.safeParse(JSON.parse(text));
    return parsed?.success === true ? parsed.data : null;
  } catch {
    return null;
  }
}
