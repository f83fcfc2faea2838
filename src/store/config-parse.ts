/**
 * The config file's text to a validated Config, with errors in the file's own words. Its own module
 * so that the yaml parser is loaded only when there is a config file to read (see config.ts).
 */
import { parseDocument } from 'yaml';
import type * as z from '../../types/zod.js';
import { Config } from '../../types/config.js';
import { ConfigInvalidError } from '../errors.js';

/** yaml text -> validated Config, or CONFIG_INVALID `<file>: <key>: <problem>`. */
export function parseConfig(file: string, text: string): Config {
  // logLevel 'error': a warning (a mapping used as a key) is no line on stderr; errors are in doc.errors.
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, logLevel: 'error' });
  const yamlError = doc.errors[0];
  if (yamlError !== undefined)
    throw invalid(file, [{ key: null, problem: firstLine(yamlError.message) }], yamlError);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw invalid(
      file,
      [{ key: null, problem: firstLine(cause instanceof Error ? cause.message : String(cause)) }],
      cause,
    );
  }
  if (raw === null || raw === undefined) return {};
  const odd = notJsonAt(raw, []);
  if (odd !== null) throw invalid(file, [odd]);
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw invalid(file, [{ key: null, problem: 'expected a mapping of settings (key: value lines)' }]);
  const parsed = Config.safeParse(raw);
  if (!parsed.success)
    throw invalid(
      file,
      parsed.error.issues.flatMap((issue) => describeIssue(issue, raw)),
    );
  return parsed.data;
}

/**
 * The first value yaml made into something JSON has not (an `!!omap`'s Map, a `!!set`'s Set, a
 * `!!timestamp`'s Date, a `!!binary`'s bytes), or null. The schema would take a Map or a Set for an
 * empty mapping: the settings written in it would be dropped without a word.
 */
function notJsonAt(value: unknown, path: string[]): ConfigIssue | null {
  if (value === null || typeof value !== 'object') return null;
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value) || proto === Object.prototype || proto === null) {
    for (const [key, item] of Object.entries(value)) {
      const found = notJsonAt(item, [...path, key]);
      if (found !== null) return found;
    }
    return null;
  }
  const tag =
    value instanceof Map
      ? '!!omap'
      : value instanceof Set
        ? '!!set'
        : value instanceof Date
          ? '!!timestamp'
          : '!!binary';
  return {
    key: path.length > 0 ? path.join('.') : null,
    problem: `a value tagged ${tag} is not a setting: write a plain mapping, list or value`,
  };
}

interface ConfigIssue {
  key: string | null;
  problem: string;
}

function invalid(file: string, issues: ConfigIssue[], cause?: unknown): ConfigInvalidError {
  const text = issues.map((i) => (i.key === null ? i.problem : `${i.key}: ${i.problem}`)).join('; ');
  return new ConfigInvalidError(`${file}: ${text}`, { cause, details: { path: file, issues } });
}

/** One zod issue in the words of a config file: the dotted key and what is wrong with its value. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): ConfigIssue[] {
  const key = issue.path.map(String).join('.');
  const at = (k: string): string | null => (k.length > 0 ? k : null);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((name) => ({ key: key ? `${key}.${name}` : name, problem: 'unknown key' }));
    case 'invalid_value':
      return [{ key: at(key), problem: `expected one of ${issue.values.map(String).join('|')}` }];
    case 'invalid_type': {
      const value = valueAt(input, issue.path);
      const expected =
        (
          { int: 'an integer', object: 'a mapping', array: 'a list', boolean: 'true or false' } as Record<
            string,
            string
          >
        )[issue.expected] ?? issue.expected;
      return [
        {
          key: at(key),
          problem:
            value === undefined
              ? `missing (expected ${expected})`
              : `expected ${expected}, got ${describeValue(value)}`,
        },
      ];
    }
    case 'too_small':
      if (issue.origin === 'string') return [{ key: at(key), problem: 'must not be empty' }];
      return [{ key: at(key), problem: `must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}` }];
    default:
      return [{ key: at(key), problem: issue.message }];
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path)
    value =
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  return value;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' && !Number.isInteger(value)) return `${value} (not an integer)`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/:$/, '');
}
