// Types of eager-compile.mjs, which the build runs with plain Node.
export interface TrainingRun {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}
export function lazyRanges(file: string, runs: TrainingRun[]): Set<string>;
export function lazyRangesInLog(log: string, file: string): string[];
export function markEager(source: string, ranges: Iterable<string>): { source: string; marked: number };
