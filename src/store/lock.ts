/** The lock lives in src/fs/lock.ts; this path stays for existing imports. */
export * from '../fs/lock.js';
