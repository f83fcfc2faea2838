import { OBJECT_ID_SOURCE } from '../../../types/ids.js';
import { unparseable } from './nul-records.js';

/** Bytes git's diff looks at for a NUL before it calls a file binary (xdiff's FIRST_FEW_BYTES). */
export const FIRST_FEW_BYTES = 8000;

/**
 * What `cat-file` said of one name: not there, or an object (with `binary` when its content was
 * scanned, and the content itself when kept).
 */
export type ScannedObject =
  | { found: false }
  | { found: true; id: string; type: string; size: number; binary: boolean; content?: Buffer };

/** `check`: `--batch-check` output; `scan`: `--batch`, each object's first bytes looked at; `keep`: `--batch`, each object kept whole. */
export type ScanMode = 'check' | 'scan' | 'keep';

const FOUND = new RegExp(`^(${OBJECT_ID_SOURCE}) ([a-z]+) ([0-9]+)$`);

/**
 * Parses `cat-file --batch -z` or `--batch-check -z` output chunk by chunk (ScanMode), for names
 * given in order: `<id> <type> <size>` and, from `--batch`, that many bytes and a newline (when
 * scanned, only the first FIRST_FEW_BYTES are looked at, for a NUL: a blob of hundreds of MiB
 * streams by), or `<name> missing` / `<name> ambiguous`. The names are known, since one may hold
 * a newline. Pure.
 */
export class CatFileScanner {
  readonly out: ScannedObject[] = [];
  private pending = Buffer.alloc(0);
  /** Content bytes (and the newline after them) still to come of the current object. */
  private left = 0;
  private looked = 0;
  private current: Extract<ScannedObject, { found: true }> | null = null;
  private parts: Buffer[] = [];

  constructor(
    private readonly mode: ScanMode,
    private readonly nameAt: (index: number) => Buffer | undefined,
  ) {}

  push(chunk: Buffer): void {
    // Only a header cut by the chunk's end is carried over: a few bytes.
    const buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let at = 0;
    while (at < buf.length) {
      if (this.current !== null) {
        at = this.body(buf, at);
        continue;
      }
      const name = this.nameAt(this.out.length);
      if (name === undefined) throw unparseable('cat-file -z', 'an answer for no name asked');
      const rest = buf.subarray(at);
      const none = notFound(name, rest);
      if (none === null) break;
      if (none > 0) {
        this.out.push({ found: false });
        at += none;
        continue;
      }
      const nl = rest.indexOf(0x0a);
      if (nl < 0) break;
      const header = rest.toString('latin1', 0, nl);
      const m = FOUND.exec(header);
      if (m === null) throw unparseable('cat-file -z', 'malformed header', header);
      const found = { found: true as const, id: m[1] as string, type: m[2] as string, size: Number(m[3]) };
      at += nl + 1;
      this.out.push({ ...found, binary: false });
      if (this.mode === 'check') continue;
      this.current = this.out.at(-1) as Extract<ScannedObject, { found: true }>;
      this.left = found.size + 1;
      this.looked = 0;
      this.parts = [];
    }
    this.pending = Buffer.from(buf.subarray(at));
  }

  /** The answers, once git is done: every name answered, nothing left over. */
  end(count: number): ScannedObject[] {
    if (this.current !== null || this.pending.length > 0 || this.out.length !== count)
      throw unparseable('cat-file -z', `${count} names asked, ${this.out.length} answered`);
    return this.out;
  }

  private body(buf: Buffer, at: number): number {
    const cur = this.current as Extract<ScannedObject, { found: true }>;
    const take = Math.min(this.left, buf.length - at);
    const look = Math.min(take, Math.max(0, Math.min(cur.size, FIRST_FEW_BYTES) - this.looked));
    if (look > 0 && buf.subarray(at, at + look).includes(0)) cur.binary = true;
    this.looked += look;
    if (this.mode === 'keep')
      this.parts.push(Buffer.from(buf.subarray(at, at + Math.min(take, this.left - 1))));
    this.left -= take;
    if (this.left === 0) {
      if (buf[at + take - 1] !== 0x0a) throw unparseable('cat-file -z', `object ${cur.id} is truncated`);
      if (this.mode === 'keep') cur.content = Buffer.concat(this.parts);
      this.current = null;
    }
    return at + take;
  }
}

/** Bytes of a `<name> missing|ambiguous` answer at the start of `buf`; 0 when it is none, null when too little came yet. */
function notFound(name: Buffer, buf: Buffer): number | null {
  for (const word of [' missing\n', ' ambiguous\n']) {
    const line = Buffer.concat([name, Buffer.from(word, 'latin1')]);
    const n = Math.min(line.length, buf.length);
    if (!buf.subarray(0, n).equals(line.subarray(0, n))) continue;
    return n === line.length ? n : null;
  }
  return 0;
}
