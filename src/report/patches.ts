/**
 * Splits a snapshot's patch, as it streams, into one diff per changed file for the HTML report.
 * Only what fits the limits is kept, a section at a time, so a patch of any size costs bounded
 * memory (a 577 MiB patch never becomes one string).
 */
import { StringDecoder } from 'node:string_decoder';
import type { FileChange } from '../../types/snapshot.js';
import { collectEvery } from '../memory.js';
import { showDiffText } from './visible.js';

export interface DiffLimits {
  /** A file whose diff is larger is not embedded: the page says "too large to show here". */
  maxFileDiffBytes: number;
  /** All the diffs one report embeds together stay within this; files past it are not embedded. */
  maxTotalDiffBytes: number;
}

export interface FileDiffText {
  /** The file's diff with its `diff --git` header; '' when binary, too large or without a section. */
  diff: string;
  binary: boolean;
  /** Its diff did not fit the limits: not embedded, the patch artifact has it. */
  tooLarge: boolean;
  /** The patch could not be read or regenerated here (no artifact, no commits). */
  unavailable?: boolean;
}

/** What is left of the report's total diff allowance, shared by its iterations. */
export class DiffBudget {
  constructor(
    readonly limits: DiffLimits,
    public remaining: number = limits.maxTotalDiffBytes,
  ) {}
}

const HEADER = Buffer.from('diff --git ');
const BINARY_MARKS = [Buffer.from('GIT binary patch'), Buffer.from('Binary files ')];
/** A longer line is content (no header is this long): it is passed on without being buffered whole. */
const LINE_CAP = 64 * 1024;

/**
 * Pairs the patch's sections with the snapshot's files and yields each file's diff, in file order,
 * as soon as it is complete, keeping what fits the budget. Both come from the same diff-tree
 * pass, sorted the same way, so they pair in order: a section whose header names the file at hand
 * is that file's; one naming the file before, or with the header of the section before (a quoted
 * name), is its second part (a type change is a deletion plus an addition); any other (a quoted
 * name) is the next file's. A file without a section (no textual change) gets ''.
 */
export async function* fileDiffs(
  files: readonly FileChange[],
  chunks: AsyncIterable<Buffer>,
  budget: DiffBudget,
): AsyncGenerator<FileDiffText> {
  const results: (FileDiffText | null)[] = files.map((f) => ({
    diff: '',
    binary: f.binary,
    tooLarge: false,
  }));
  const used = files.map(() => 0);
  let next = 0;
  let current = -1;
  let lastHeader: string | null = null;
  const notEmbedded = (result: FileDiffText, change: Partial<FileDiffText>) => {
    Object.assign(result, { diff: '', ...change });
    budget.remaining += used[current] as number; // a file not embedded takes nothing
    used[current] = 0;
  };
  const reader = new SectionReader({
    open(header) {
      // The file at hand, or the one before for a second section (see above).
      const second =
        header === lastHeader || (header !== headerOf(files[next]) && header === headerOf(files[next - 1]));
      current = second ? next - 1 : next++;
      lastHeader = header;
      const result = results[current];
      if (!result || result.binary || result.tooLarge) return -1;
      return Math.min(budget.limits.maxFileDiffBytes - (used[current] as number), budget.remaining);
    },
    close(section) {
      const result = results[current];
      if (!result || result.binary) return;
      if (section.binary) notEmbedded(result, { binary: true, tooLarge: false });
      else if (result.tooLarge) return;
      else if (section.text === null) notEmbedded(result, { tooLarge: true });
      else {
        result.diff += showDiffText(section.text);
        used[current] = (used[current] as number) + section.bytes;
        budget.remaining -= section.bytes;
      }
    },
  });
  let done = 0;
  // Files before the current one are complete: handed on, and let go of, after each chunk.
  const ready = function* (upTo: number) {
    for (; done < upTo; done++) {
      yield results[done] as FileDiffText;
      results[done] = null;
    }
  };
  const collect = collectEvery();
  for await (const chunk of chunks) {
    reader.push(chunk);
    collect(chunk.length);
    yield* ready(current);
  }
  reader.end();
  yield* ready(files.length);
}

function headerOf(file: FileChange | undefined): string | undefined {
  return file && `diff --git a/${file.oldPath ?? file.path} b/${file.path}`;
}

interface SectionEvents {
  /** A section starts: how many bytes of it to keep (-1: none, it is skipped). */
  open(header: string): number;
  /** It ended: its text (null when it was larger than its limit), or binary. */
  close(section: { text: string | null; bytes: number; binary: boolean }): void;
}

/**
 * Cuts a byte stream into `diff --git` sections, holding at most one section's kept bytes. Nothing
 * it keeps refers to a chunk (the start of a line is copied, kept text decoded), so the source may
 * reuse its buffer, and no kept slice holds on to a whole chunk.
 */
class SectionReader {
  private line: Buffer[] = [];
  private lineBytes = 0;
  private longLine = false;
  private open = false;
  private limit = -1;
  /** The kept bytes, decoded as they come: strings live on the heap, which V8 collects as it goes. */
  private parts: string[] = [];
  private decoder = new StringDecoder('utf8');
  private bytes = 0;
  private binary = false;

  constructor(private readonly events: SectionEvents) {}

  push(chunk: Buffer): void {
    for (let pos = 0; pos < chunk.length;) {
      const newline = chunk.indexOf(10, pos);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.piece(chunk.subarray(pos, end), newline !== -1);
      pos = end;
    }
  }

  end(): void {
    if (this.lineBytes > 0) this.wholeLine(this.takeLine());
    this.finish();
  }

  private piece(bytes: Buffer, endsLine: boolean): void {
    if (this.longLine) {
      this.body(bytes);
      this.longLine = !endsLine;
      return;
    }
    if (endsLine && this.lineBytes === 0) return this.wholeLine(bytes);
    this.line.push(Buffer.from(bytes));
    this.lineBytes += bytes.length;
    if (endsLine) this.wholeLine(this.takeLine());
    else if (this.lineBytes > LINE_CAP) {
      this.longLine = true;
      this.body(this.takeLine());
    }
  }

  private takeLine(): Buffer {
    const line = Buffer.concat(this.line, this.lineBytes);
    this.line = [];
    this.lineBytes = 0;
    return line;
  }

  private wholeLine(line: Buffer): void {
    if (startsWith(line, HEADER)) {
      this.finish();
      this.open = true;
      this.limit = this.events.open(line.toString('utf8').replace(/\n$/, ''));
    } else if (BINARY_MARKS.some((mark) => startsWith(line, mark))) this.binary = true;
    this.body(line);
  }

  private body(bytes: Buffer): void {
    // Bytes before the first header (a git patch has none) belong to no file.
    if (!this.open) return;
    this.bytes += bytes.length;
    if (this.binary || this.bytes > this.limit) this.parts = [];
    else this.parts.push(this.decoder.write(bytes));
  }

  private finish(): void {
    if (!this.open) return;
    const kept = !this.binary && this.bytes <= this.limit;
    const text = kept ? this.parts.join('') + this.decoder.end() : null;
    this.events.close({ text, bytes: this.bytes, binary: this.binary });
    this.open = false;
    this.parts = [];
    this.decoder = new StringDecoder('utf8');
    this.bytes = 0;
    this.binary = false;
  }
}

function startsWith(line: Buffer, prefix: Buffer): boolean {
  return line.length >= prefix.length && line.subarray(0, prefix.length).equals(prefix);
}
