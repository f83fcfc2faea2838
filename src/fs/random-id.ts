/**
 * Ids of snapshots and gate verdicts: nanoid's, in a file- and ref-name-safe alphabet, from the
 * crypto RNG through src/fs/random.ts. nanoid's own generators draw from Web Crypto, whose set-up
 * costs a process about 2 ms more than node:crypto's randomBytes (measured); the ids are the same.
 */
import { customRandom } from 'nanoid';
import { randomBytes } from './random.js';

/** A generator of random ids of `length` characters from 0-9 and a-z. */
export function idGenerator(length: number): () => string {
  return customRandom('0123456789abcdefghijklmnopqrstuvwxyz', length, randomBytes);
}
