import { expect } from 'vitest';

/** The `code` a promise rejects with, or undefined if it resolves: tests assert codes, never messages. */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** Awaits `promise` and checks that it rejects with an error carrying `code`. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  expect(await codeOf(promise)).toBe(code);
}
