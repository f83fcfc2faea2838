import { GitOutputUnparseableError } from '../../errors.js';

/** Splits NUL-terminated records; a missing final terminator is tolerated. */
export function splitNul(text: string): string[] {
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** The error every parser throws when git's output does not have the documented shape. */
export function unparseable(command: string, reason: string, sample = ''): GitOutputUnparseableError {
  return new GitOutputUnparseableError(
    `unexpected output from git ${command}: ${reason}; please report this with your git version`,
    {
      details: { command, reason, ...(sample === '' ? {} : { sample: sample.slice(0, 120) }) },
    },
  );
}
