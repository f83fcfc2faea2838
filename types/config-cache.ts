import * as z from './zod.js';
import { deferred } from './zod.js';
import { Config } from './config.js';

/**
 * `<home>/cache/config.json`: the config file's text and what it parsed to (src/store/config-cache.ts),
 * so that an agent hook does not run the YAML parser on every event while the text stays the same.
 */
export const ConfigCacheRecord = deferred(() =>
  z.object({
    file: z.string(),
    text: z.string(),
    config: Config,
  }),
);
export type ConfigCacheRecord = z.infer<typeof ConfigCacheRecord>;
