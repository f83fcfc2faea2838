import { GitOutputUnparseableError } from '../../errors.js';

/**
 * Reads git's NUL-terminated (`-z`) output one field at a time. With `-z` git quotes nothing, so a
 * field may hold any byte but NUL: spaces, tabs, newlines, quotes and non-ASCII names included.
 */
export class ZTokens {
  private readonly fields: string[];
  private index = 0;

  constructor(
    output: string,
    private readonly what: string,
  ) {
    this.fields = output === '' ? [] : output.split('\0');
    // Every field is NUL-terminated, so a well-formed stream ends with an empty piece.
    if (this.fields.length > 0 && this.fields.pop() !== '')
      throw this.malformed('output does not end with NUL');
  }

  /** True when every field has been consumed. */
  get done(): boolean {
    return this.index >= this.fields.length;
  }

  /** The next field without consuming it, or undefined at the end. */
  peek(): string | undefined {
    return this.fields[this.index];
  }

  /** Consumes and returns the next field; a missing field means the output was cut short. */
  next(): string {
    const field = this.fields[this.index];
    if (field === undefined) throw this.malformed('output ends in the middle of a record');
    this.index += 1;
    return field;
  }

  /** The error to throw when git's output does not have the shape we parse. */
  malformed(reason: string): GitOutputUnparseableError {
    return new GitOutputUnparseableError(
      `unexpected output from git ${this.what}: ${reason}; please report this with your git version`,
      {
        details: { parser: this.what, field: this.index, reason },
      },
    );
  }
}
