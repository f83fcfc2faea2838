import { timeoutProblem } from '../types/duration.js';
import type * as z from '../types/zod.js';
import { InvalidArgumentError } from './errors.js';

/**
 * A public argument checked against its shape (types/library.ts): `value` itself when the schema
 * takes it (checked, never converted: what the caller gave is what is used), else INVALID_ARGUMENT
 * naming the argument and the field. The library's entry points call it first, so that a JavaScript
 * caller's wrong type fails with a code, before anything is recorded.
 */
export function checkArgument<T>(schema: z.ZodMiniType<T>, value: unknown, name: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return value as T;
  const issue = parsed.error.issues[0];
  throw refused([name, ...(issue?.path ?? []).map(String)].join('.'), issue?.message ?? 'invalid');
}

/**
 * checkArgument for a directory (a home) without a schema, for the constructors and helpers the CLI
 * itself calls at every start (SnapshotStore, GateStore, layout): building a schema on its first
 * use costs about half a millisecond, more than the rest of such a call. A non-empty string: an
 * empty one would be the working directory.
 */
export function checkDirArgument(value: unknown, name: string): string {
  if (typeof value === 'string' && value !== '') return value;
  throw refused(
    name,
    typeof value === 'string' ? 'must not be empty' : `expected a string, got ${kindOf(value)}`,
  );
}

/** A store's options checked as cheaply: none, or an object whose lockTimeoutMs, when given, is a time limit. */
export function checkStoreOptions(value: unknown, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null)
    throw refused(name, `expected an object, got ${kindOf(value)}`);
  const ms: unknown = (value as { lockTimeoutMs?: unknown }).lockTimeoutMs;
  if (ms === undefined) return;
  const problem = typeof ms === 'number' ? timeoutProblem(ms, 'it') : `expected a number, got ${kindOf(ms)}`;
  if (problem !== null) throw refused(`${name}.lockTimeoutMs`, problem);
}

function refused(at: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(`${at}: ${problem}; give it as the library's type declarations say`, {
    details: { argument: at },
  });
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
