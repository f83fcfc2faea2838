/** Splits a snapshot's unified diff into one text per changed file, for the HTML report. */
import type { FileChange } from '../../types/snapshot.js';

/** Above this, a file's diff is cut (at a line end) in the report; the artifact keeps all of it. */
export const MAX_FILE_DIFF_BYTES = 1024 * 1024;

export interface FileDiffText {
  /** The file's diff with its `diff --git` header, or '' for a binary file (never inlined). */
  diff: string;
  binary: boolean;
  truncated: boolean;
  /** The patch could not be read or regenerated here (no artifact, no commits). */
  unavailable?: boolean;
}

/** The per-file sections of a `diff --git` patch, in patch order. Pure. */
export function splitPatch(patch: string): string[] {
  if (patch.length === 0) return [];
  const starts: number[] = [];
  if (patch.startsWith('diff --git ')) starts.push(0);
  for (let at = patch.indexOf('\ndiff --git '); at !== -1; at = patch.indexOf('\ndiff --git ', at + 1))
    starts.push(at + 1);
  return starts.map((start, i) => patch.slice(start, starts[i + 1] ?? patch.length));
}

/**
 * Pairs the sections with the snapshot's files. Both come from the same diff-tree pass, sorted
 * the same way, so they pair in order; a file without a section (no textual change) gets ''.
 */
export function fileDiffs(
  files: readonly FileChange[],
  patch: string,
  maxBytes = MAX_FILE_DIFF_BYTES,
): FileDiffText[] {
  const sections = splitPatch(patch);
  const byOrder = sections.length === files.length;
  return files.map((file, i) => {
    const section = byOrder ? (sections[i] ?? '') : (sections.find((s) => headerNames(s, file)) ?? '');
    const binary = file.binary || /^(GIT binary patch|Binary files )/m.test(section);
    if (binary) return { diff: '', binary: true, truncated: false };
    return cut(section, maxBytes);
  });
}

function headerNames(section: string, file: FileChange): boolean {
  const header = section.slice(0, section.indexOf('\n') === -1 ? section.length : section.indexOf('\n'));
  return header === `diff --git a/${file.oldPath ?? file.path} b/${file.path}`;
}

function cut(section: string, maxBytes: number): FileDiffText {
  if (Buffer.byteLength(section, 'utf8') <= maxBytes)
    return { diff: section, binary: false, truncated: false };
  const prefix = Buffer.from(section, 'utf8').subarray(0, maxBytes).toString('utf8');
  const end = prefix.lastIndexOf('\n');
  return { diff: end === -1 ? '' : prefix.slice(0, end + 1), binary: false, truncated: true };
}
