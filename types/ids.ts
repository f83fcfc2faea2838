/**
 * The one definition of a full git object id: 40 hex digits (SHA-1) or 64 (SHA-256), lower case.
 * Everything that checks an id (zod schemas, git output parsers, ref updates) uses these.
 */
export const OBJECT_ID_SOURCE = '[0-9a-f]{40}(?:[0-9a-f]{24})?';
export const OBJECT_ID_PATTERN = new RegExp(`^${OBJECT_ID_SOURCE}$`);
