/**
 * Random hex for temp file names, lock tokens and delimiters. node:crypto is loaded on the first
 * call, not at import: it is some forty of Node's own modules, a quarter of a bare Node start-up,
 * and commands that only read (`runs`, `list`, `show`, `--version`) never need it.
 */
import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';

let crypto: typeof Crypto | null = null;

/** `count` random bytes from the crypto RNG. */
export function randomBytes(count: number): Buffer {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  return crypto.randomBytes(count);
}

/** `bytes` random bytes from the crypto RNG, as lower-case hex (two characters a byte). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
