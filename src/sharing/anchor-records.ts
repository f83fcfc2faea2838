import { join } from 'node:path';
import type { Anchor } from '../../types/anchor.js';
import type { AnchorsReceived } from '../../types/anchor-record.js';
import type { RefusedRecord } from '../../types/sharing.js';
import { withLock } from '../fs/lock.js';
import { batchCheck, listRefsWithParents, objectFormat, type CommitRef } from '../git/record-objects.js';
import { deleteRefs, listRefs, updateRefs, type RefUpdate } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { writeRecordObjects } from './record-objects.js';
import { incomingRefspecs, refuseUndelivered } from './core.js';
import { heldUnder, INCOMING_PREFIX, refInTheWayReason } from './records.js';
import { withRepoLock } from '../git/repo-lock.js';
import { layout } from '../store/paths.js';
import {
  ANCHOR_INCOMING_PREFIX,
  ANCHORS_PREFIX,
  anchorObjects,
  anchorRef,
  parseAnchorRef,
  readAnchorCommits,
  type AnchorObjects,
} from './anchor-objects.js';

/**
 * What anchor travel needs from provenance (src/provenance/anchor-keeper.ts gives it): the anchors
 * recorded in the home, and a recomputation from this machine's records and git. Injected, so that
 * sharing stays a transport that never decides what an anchor says.
 */
export interface AnchorKeeper {
  /** The commits that have a recorded anchor in the home (any repository). */
  list(): Promise<string[]>;
  load(commit: string): Promise<Anchor | null>;
  save(anchor: Anchor): Promise<unknown>;
  /** Per anchor, in order: null when it recomputes the same here (createdAt aside), else why not. */
  recheck(repo: Repo, anchors: readonly Anchor[]): Promise<Array<string | null>>;
  /** Whether two anchors of one commit say the same (createdAt aside). */
  same(a: Anchor, b: Anchor): boolean;
}

/**
 * Anchors that travel beside the runs they name (CONTRACT.md, "Provenance after merge"): one
 * commit per anchored commit under refs/agentgate/anchors/, made from the home's recorded anchors
 * before a push or export; after a fetch or import each one is checked and kept only when it
 * recomputes the same from the records and git here.
 */
export class AnchorRecords {
  constructor(
    private readonly options: { home: string; lockTimeoutMs: number },
    private readonly keeper: AnchorKeeper,
  ) {}

  /**
   * Makes sure every recorded anchor of this repository's commits (only those naming one of
   * `runIds`, when given) has its ref; the commits published. A ref that already holds an anchor
   * saying the same is kept as it is (it may be another machine's, fetched), so a repeated push is
   * "up to date"; one that says something else is moved to the newer computation (compare-and-swap).
   */
  async materialise(repo: Repo, runIds: readonly string[] | null): Promise<string[]> {
    return withRepoLock(repo, this.options.lockTimeoutMs, async () => {
      const format = await objectFormat(repo);
      const anchors = (await Promise.all((await this.keeper.list()).map((c) => this.keeper.load(c)))).filter(
        (a): a is Anchor => a !== null && (runIds === null || a.runs.some((r) => runIds.includes(r.runId))),
      );
      const present = await batchCheck(
        repo,
        anchors.map((a) => `${a.commit}^{commit}`),
      );
      const here = anchors.filter((_, i) => present[i]?.found === true);
      const existing = await listRefsWithParents(repo, ANCHORS_PREFIX);
      const byRef = new Map(existing.map((r) => [r.ref, r]));
      const made = here.map((anchor) => ({ anchor, objects: anchorObjects(format, anchor) }));
      // Only refs that hold another commit than ours are read (an anchor saying the same is kept).
      const other = made.flatMap((m) => {
        const r = byRef.get(anchorRef(m.anchor.commit));
        return r !== undefined && r.sha !== m.objects.commit.id ? [r] : [];
      });
      const held = new Map(
        (await readAnchorCommits(repo, format, other, [])).map((h) => [h.commit, h.anchor]),
      );
      const pending: Array<{ anchor: Anchor; objects: AnchorObjects; old: string | null }> = [];
      for (const { anchor, objects } of made) {
        const old = byRef.get(anchorRef(anchor.commit))?.sha ?? null;
        if (old === objects.commit.id) continue;
        const theirs = held.get(anchor.commit);
        if (theirs !== undefined && this.keeper.same(theirs, anchor)) continue;
        pending.push({ anchor, objects, old });
      }
      if (pending.length > 0) await this.write(repo, pending);
      return here.map((a) => a.commit).sort();
    });
  }

  private async write(
    repo: Repo,
    pending: Array<{ anchor: Anchor; objects: AnchorObjects; old: string | null }>,
  ): Promise<void> {
    await writeRecordObjects(
      repo,
      this.options.home,
      'anchors',
      pending.map((p) => p.objects),
    );
    const updates: RefUpdate[] = pending.map((p) => ({
      ref: anchorRef(p.anchor.commit),
      newSha: p.objects.commit.id,
      oldSha: p.old,
    }));
    await updateRefs(repo, updates, { message: 'agentgate: anchor' });
  }

  /**
   * Takes anchors in from `source` (the remote's or bundle's refs under refs/agentgate/anchors/):
   * fetches only those this repository lacks (`bring`, into the incoming namespace), checks each
   * (name, shape, schema, commit id, canonical commit), recomputes it here, and keeps only those
   * that recompute the same: stored in the home and given their ref. With `runIds`, only anchors
   * naming one of them are taken (the others are left, not refused). Runs after the run records
   * were received, under the home's sharing lock and the repository's lock.
   */
  async receive(
    repo: Repo,
    source: ReadonlyArray<{ sha: string; ref: string }>,
    bring: (refspecs: string[]) => Promise<void>,
    runIds: readonly string[] | null,
  ): Promise<AnchorsReceived> {
    if (source.length === 0) return { anchors: [], unchanged: 0, refused: [] };
    const lockPath = join(layout(this.options.home).locks, 'sharing.lock');
    return withLock(lockPath, { timeoutMs: this.options.lockTimeoutMs, purpose: 'sharing' }, () =>
      withRepoLock(repo, this.options.lockTimeoutMs, async () => {
        // Also a ref named `refs/agentgate/incoming` or `.../incoming/anchors` itself, which would keep
        // git from making any incoming anchor ref (the records' sweep does not run with --anchors only).
        const leftover = (await listRefs(repo, INCOMING_PREFIX.slice(0, -1))).filter(
          (r) =>
            r.ref === INCOMING_PREFIX.slice(0, -1) ||
            r.ref === ANCHOR_INCOMING_PREFIX.slice(0, -1) ||
            r.ref.startsWith(ANCHOR_INCOMING_PREFIX),
        );
        await deleteRefs(
          repo,
          leftover.map((r) => ({ ref: r.ref, oldSha: r.sha })),
        );
        const format = await objectFormat(repo);
        const refused: RefusedRecord[] = [];
        const named = source.filter((r) => {
          if (parseAnchorRef(r.ref, ANCHORS_PREFIX, format) !== null) return true;
          refused.push({
            ref: r.ref,
            reason: 'not an anchor ref name (refs/agentgate/anchors/<full commit id>)',
          });
          return false;
        });
        const { local, inTheWay } = await heldUnder(repo, ANCHORS_PREFIX);
        const toFetch = named.filter((r) => {
          const blocker = local.has(r.ref) ? null : inTheWay(r.ref);
          if (blocker !== null) refused.push({ ref: r.ref, reason: refInTheWayReason(r.ref, blocker) });
          return blocker === null && local.get(r.ref)?.sha !== r.sha;
        });
        // Refs held already are checked again only when the home lacks their anchor (a new home).
        const { held, unchanged } = await this.alreadyHeld(named, local);
        if (toFetch.length > 0)
          await bring(incomingRefspecs(ANCHORS_PREFIX, ANCHOR_INCOMING_PREFIX, toFetch, refused));
        const wanted = new Set(toFetch.map((r) => r.ref));
        const incoming = toFetch.length > 0 ? await listRefsWithParents(repo, ANCHOR_INCOMING_PREFIX) : [];
        refuseUndelivered(ANCHORS_PREFIX, ANCHOR_INCOMING_PREFIX, toFetch, incoming, refused);
        try {
          const fetched = incoming
            .map((r) => ({ ...r, ref: `${ANCHORS_PREFIX}${r.ref.slice(ANCHOR_INCOMING_PREFIX.length)}` }))
            .filter((r) => wanted.has(r.ref));
          const taken = await this.take(repo, [...fetched, ...held], local, runIds, refused);
          return { ...taken, unchanged: taken.unchanged + unchanged };
        } finally {
          await deleteRefs(
            repo,
            incoming.map((r) => ({ ref: r.ref, oldSha: r.sha })),
          );
        }
      }),
    );
  }

  /** Of the source's refs this repository holds with the same content: those whose anchor the home lacks, and how many it has. */
  private async alreadyHeld(
    source: ReadonlyArray<{ sha: string; ref: string }>,
    local: Map<string, CommitRef>,
  ): Promise<{ held: CommitRef[]; unchanged: number }> {
    const held: CommitRef[] = [];
    let unchanged = 0;
    for (const r of source) {
      const mine = local.get(r.ref);
      if (mine?.sha !== r.sha) continue;
      const recorded = await this.keeper.load(r.ref.slice(ANCHORS_PREFIX.length)).catch(() => null);
      if (recorded === null) held.push(mine);
      else unchanged += 1;
    }
    return { held, unchanged };
  }

  /** Checks, recomputes and keeps what passes; the refused are added to `refused`. */
  private async take(
    repo: Repo,
    refs: CommitRef[],
    local: Map<string, CommitRef>,
    runIds: readonly string[] | null,
    refused: RefusedRecord[],
  ): Promise<AnchorsReceived> {
    const format = await objectFormat(repo);
    const read = (await readAnchorCommits(repo, format, refs, refused)).filter(
      (r) => runIds === null || r.anchor.runs.some((run) => runIds.includes(run.runId)),
    );
    const reasons = await this.keeper.recheck(
      repo,
      read.map((r) => r.anchor),
    );
    const mineOf = new Map(
      (
        await readAnchorCommits(
          repo,
          format,
          read.map((r) => local.get(r.ref.ref)).filter((m): m is CommitRef => m !== undefined),
          [],
        )
      ).map((m) => [m.commit, m.anchor]),
    );
    const anchors: string[] = [];
    const updates: RefUpdate[] = [];
    let unchanged = 0;
    for (const [i, r] of read.entries()) {
      const why = reasons[i];
      if (why !== null && why !== undefined) {
        refused.push({ ref: r.ref.ref, reason: `it does not recompute the same here: ${why}` });
        continue;
      }
      const mine = local.get(r.ref.ref);
      if (mine !== undefined && mine.sha !== r.ref.sha) {
        const theirs = mineOf.get(r.commit);
        if (theirs !== undefined && this.keeper.same(theirs, r.anchor)) unchanged += 1;
        else
          refused.push({
            ref: r.ref.ref,
            reason: `conflicts with this repository's anchor ${mine.sha}; kept the local one`,
          });
        continue;
      }
      const recorded = await this.keeper.load(r.commit).catch(() => null);
      if (recorded === null || !this.keeper.same(recorded, r.anchor)) await this.keeper.save(r.anchor);
      if (mine === undefined) updates.push({ ref: r.ref.ref, newSha: r.ref.sha, oldSha: null });
      anchors.push(r.commit);
    }
    await updateRefs(repo, updates, { message: 'agentgate: fetched anchor' });
    return { anchors: anchors.sort(), unchanged, refused };
  }
}
