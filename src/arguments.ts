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
  const at = [name, ...(issue?.path ?? []).map(String)].join('.');
  throw new InvalidArgumentError(
    `${at}: ${issue?.message ?? 'invalid'}; give it as the library's type declarations say`,
    { details: { argument: at } },
  );
}
