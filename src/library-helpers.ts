/**
 * The library's exported helpers, checked as every entry point is (types/library.ts): a JavaScript
 * caller's wrong type is INVALID_ARGUMENT naming the argument, never a TypeError from inside. The
 * commands call the unchecked functions themselves, so their own calls pay nothing.
 */
import type { AgentTraceRecord, Anchor, Trace, TraceRange } from '../types/anchor.js';
import type { GateVerdict } from '../types/gate.js';
import { DateArg, FileArg, FunctionArg } from '../types/library.js';
import {
  AnchorArg,
  DelimiterArg,
  DemoOptionsArg,
  KeyValuesArg,
  OptionalCountArg,
  RunReportArg,
  StepSummaryArg,
  ToolArg,
  TraceArg,
  VerdictInputArg,
  VerifyChecksArg,
} from '../types/library-helpers.js';
import type { RunReport } from '../types/report.js';
import type { VerifyCheck } from '../types/verify.js';
import { checkArgument } from './arguments.js';
import * as ci from './ci/github.js';
import type { StepSummarySection, SummaryAppended } from './ci/github.js';
import { runDemo as demo, type DemoSummary } from './demo/demo.js';
import { decideVerdict as decide, type VerdictInput } from './gates/verdict.js';
import { toAgentTrace as agentTrace } from './provenance/agent-trace.js';
import { anchorDifferences as differences } from './provenance/compare.js';
import { renderDotenv as dotenv } from './report/dotenv.js';
import { renderMarkdown as markdown } from './report/markdown.js';

type KeyValues = Record<string, string | number | boolean | null>;

export function runDemo(opts: { keep?: boolean } = {}): Promise<DemoSummary> {
  return Promise.resolve().then(() => demo(checkArgument(DemoOptionsArg, opts, 'opts') ?? {}));
}

export function renderMarkdown(report: RunReport, limit?: number): string {
  checkArgument(RunReportArg, report, 'report');
  return markdown(report, checkArgument(OptionalCountArg, limit, 'limit'));
}

export function renderDotenv(report: RunReport): string {
  return dotenv(checkArgument(RunReportArg, report, 'report'));
}

export function formatKeyValues(values: KeyValues, random?: () => string): string {
  checkArgument(KeyValuesArg, values, 'values');
  if (random === undefined) return ci.formatKeyValues(values);
  checkArgument(FunctionArg, random, 'random');
  // An empty delimiter is in every value: it would be drawn again for ever.
  return ci.formatKeyValues(values, () => checkArgument(DelimiterArg, random(), 'random()'));
}

export async function appendKeyValues(file: string, values: KeyValues): Promise<void> {
  checkArgument(FileArg, file, 'file');
  checkArgument(KeyValuesArg, values, 'values');
  await ci.appendKeyValues(file, values);
}

export async function appendStepSummary(
  file: string,
  markdownText: string | StepSummarySection,
  limit?: number,
): Promise<SummaryAppended> {
  checkArgument(FileArg, file, 'file');
  checkArgument(StepSummaryArg, markdownText, 'markdown');
  return ci.appendStepSummary(file, markdownText, checkArgument(OptionalCountArg, limit, 'limit'));
}

export function errorAnnotations(checks: readonly VerifyCheck[], max?: number): string[] {
  checkArgument(VerifyChecksArg, checks, 'checks');
  return ci.errorAnnotations(checks, checkArgument(OptionalCountArg, max, 'max'));
}

export function decideVerdict(input: VerdictInput): { verdict: GateVerdict; reason: string } {
  return decide(checkArgument(VerdictInputArg, input, 'input'));
}

export function toAgentTrace(
  trace: Trace,
  tool: { version: string },
  now?: Date,
  isWip?: (range: TraceRange) => boolean,
): AgentTraceRecord {
  checkArgument(TraceArg, trace, 'trace');
  checkArgument(ToolArg, tool, 'tool');
  if (now !== undefined) checkArgument(DateArg, now, 'now');
  if (isWip !== undefined) checkArgument(FunctionArg, isWip, 'isWip');
  return agentTrace(trace, tool, now, isWip);
}

export function anchorDifferences(recorded: Anchor, computed: Anchor): string[] {
  return differences(
    checkArgument(AnchorArg, recorded, 'recorded'),
    checkArgument(AnchorArg, computed, 'computed'),
  );
}

export function sameAnchor(a: Anchor, b: Anchor): boolean {
  return anchorDifferences(a, b).length === 0;
}
