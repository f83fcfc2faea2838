import { InvalidArgumentError } from '../../errors.js';
import { runGit } from '../runner.js';
import { assertGitId } from './ids.js';
import { parseRefRecords, REF_RECORD_FORMAT, type RefRecord } from './parse.js';
import type { ShadowStore } from './store.js';

/** One change of a ref transaction. `expect`: the value the ref must have now; null means "must not exist". */
export interface RefUpdate {
  ref: string;
  oid: string;
  expect?: string | null;
}

function assertRefLine(ref: string): void {
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(ref) || ref.includes('..')) throw new InvalidArgumentError(`refusing ref name ${JSON.stringify(ref)}`, { details: { ref } });
}

/** Creates a commit (no parents, so old checkpoints never keep each other alive) for `tree`; the message goes through stdin. */
export async function commitTree(store: ShadowStore, tree: string, message: string): Promise<string> {
  const res = await runGit(store, ['commit-tree', tree, '-F', '-'], { input: message });
  return assertGitId(res.stdout.trim(), 'commit-tree');
}

/** Applies ref updates in one atomic transaction (`update-ref --stdin`): all succeed or none. */
export async function updateRefs(store: ShadowStore, updates: readonly RefUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  const lines = updates.map((u) => {
    assertRefLine(u.ref);
    if (u.expect === null) return `create ${u.ref} ${u.oid}\n`;
    return u.expect === undefined ? `update ${u.ref} ${u.oid}\n` : `update ${u.ref} ${u.oid} ${u.expect}\n`;
  });
  await runGit(store, ['update-ref', '--stdin'], { input: `start\n${lines.join('')}prepare\ncommit\n` });
}

/** Deletes refs in one atomic transaction, each only if it still points at the given commit. */
export async function deleteRefs(store: ShadowStore, refs: ReadonlyArray<{ ref: string; oid: string }>): Promise<void> {
  if (refs.length === 0) return;
  const lines = refs.map((r) => {
    assertRefLine(r.ref);
    return `delete ${r.ref} ${r.oid}\n`;
  });
  await runGit(store, ['update-ref', '--stdin'], { input: `start\n${lines.join('')}prepare\ncommit\n` });
}

/** The object a ref points at, or null when the ref does not exist. */
export async function readRef(store: ShadowStore, ref: string): Promise<string | null> {
  assertRefLine(ref);
  const res = await runGit(store, ['rev-parse', '--verify', '--quiet', ref], { okExitCodes: [1] });
  return res.exitCode === 0 ? assertGitId(res.stdout.trim(), 'rev-parse') : null;
}

/** Every ref under the given prefixes with its commit, tree, date and message body, newest ref name first. */
export async function listRefRecords(store: ShadowStore, prefixes: readonly string[]): Promise<RefRecord[]> {
  for (const p of prefixes) assertRefLine(p);
  const res = await runGit(store, ['for-each-ref', '--sort=-refname', `--format=${REF_RECORD_FORMAT}`, ...prefixes]);
  return parseRefRecords(res.stdout);
}
