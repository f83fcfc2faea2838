import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeBytes } from '../fs/path-bytes.js';
import { makeTempDir } from '../fs/temp-dir.js';

/** The alias our own config file defines; command-line config outranks a repository's. */
const ALIAS = 'agentgate-bytes';

/**
 * Runs `run` with the arguments that give git `words` after the global options `global`, byte for
 * byte. An argument reaches git as UTF-8 text, so a file name that is not UTF-8 (its bytes kept as
 * lone surrogates, src/fs/path-bytes.ts) would arrive as U+FFFD: such words go through an alias
 * defined in a config file of our own (`-c include.path=`), whose bytes are the name's. The file
 * lives in a private temporary directory, removed when `run` ends.
 */
export async function withByteArgs<T>(
  global: readonly string[],
  words: readonly string[],
  run: (args: string[]) => Promise<T>,
): Promise<T> {
  if (words.every((w) => w.isWellFormed())) return run([...global, ...words]);
  const dir = await makeTempDir('agentgate-args-');
  try {
    const file = join(dir, 'config');
    await writeFile(file, aliasConfig(words), { mode: 0o600 });
    return await run([...global, '-c', `include.path=${file}`, ALIAS]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A config file whose alias runs git with `words`. */
function aliasConfig(words: readonly string[]): Buffer {
  // git splits an alias into words as a shell would: each in double quotes, `\` and `"` escaped.
  const value = words.map((w) => `"${w.replace(/[\\"]/g, '\\$&')}"`).join(' ');
  // The config file's own quoting, around that: `\` and `"` escaped again, a line break as `\n`.
  const quoted = value.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\n');
  return encodeBytes(`[alias]\n\t${ALIAS} = "${quoted}"\n`);
}
