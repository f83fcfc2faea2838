import type { DiffStats, FileChange, Snapshot } from '../../../types/snapshot.js';
import { countOf, printable, short, table } from '../output.js';

export const RUN_ID = {
  type: 'string',
  valueName: 'ID',
  description: 'the run id: letters, digits, ".", "_" and "-"',
} as const;

export const SNAPSHOT_KEY = 'a snapshot id, or a full or abbreviated after SHA that names one snapshot';

export function snapshotResult(s: Snapshot): { json: Snapshot; human: (colour: boolean) => string } {
  return {
    json: s,
    human: () =>
      [
        `Snapshot ${s.id}: run ${s.runId} iteration ${s.iteration} on ${printable(s.branch)}`,
        `  ${short(s.beforeSha)}..${short(s.afterSha)}  ${countOf(s.filesChanged, 'file')}, +${s.insertions} -${s.deletions}${s.beforeSha === s.afterSha ? ' (no change)' : ''}`,
        `  patch: ${printable(s.patchPath ?? '-')}`,
        ...(s.files.length ? ['', filesTable(s.files)] : []),
      ].join('\n'),
  };
}

export function statsText(s: DiffStats): string {
  return `${countOf(s.filesChanged, 'distinct file')} changed, +${s.insertions} -${s.deletions}${s.files.length ? `\n\n${filesTable(s.files)}` : ''}`;
}

function filesTable(files: FileChange[]): string {
  return table(
    ['STATUS', '+', '-', 'PATH'],
    files.map((f) => [
      f.status,
      f.binary ? 'bin' : String(f.insertions),
      f.binary ? 'bin' : String(f.deletions),
      f.oldPath ? `${f.oldPath} -> ${f.path}` : f.path,
    ]),
  );
}
