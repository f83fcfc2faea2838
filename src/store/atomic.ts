/** The atomic writes live in src/fs/atomic.ts; this path stays for existing imports. */
export * from '../fs/atomic.js';
