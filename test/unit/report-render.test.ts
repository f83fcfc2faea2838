import { describe, expect, it } from 'vitest';
import {
  renderDotenv,
  dotenvVariables,
  DOTENV_MAX_BYTES,
  DOTENV_MAX_VARIABLES,
} from '../../src/report/dotenv.js';
import { esc } from '../../src/report/html.js';
import { renderMarkdown, cell } from '../../src/report/markdown.js';
import { withTaskAndGate } from '../../src/report/model.js';
import { fileDiffs, splitPatch } from '../../src/report/patches.js';
import { RunReport, type ReportSnapshot } from '../../types/report.js';
import type { FileChange } from '../../types/snapshot.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const NOW = '2026-01-01T00:00:00.000Z';

function file(path: string, extra: Partial<FileChange> = {}): FileChange {
  return { path, oldPath: null, status: 'modified', insertions: 1, deletions: 1, binary: false, ...extra };
}

function snapshot(
  iteration: number,
  files: FileChange[],
  extra: Partial<ReportSnapshot> = {},
): ReportSnapshot {
  return {
    id: `snap-${iteration}`,
    runId: 'r1',
    iteration,
    beforeSha: SHA_A,
    afterSha: SHA_B,
    branch: 'main',
    commitMessage: `[agentgate] Run r1 iteration ${iteration}\n\nTask: t\nGate: g\n`,
    patchPath: null,
    patchSha256: null,
    filesChanged: files.length,
    insertions: files.length,
    deletions: files.length,
    createdAt: NOW,
    files,
    workspace: '/w',
    ref: null,
    task: 't',
    gate: 'g',
    ...extra,
  };
}

function report(snapshots: ReportSnapshot[], ok = true): RunReport {
  return RunReport.parse({
    kind: 'agentgate-run-report',
    version: 1,
    generatedAt: NOW,
    run: {
      runId: 'r1',
      workspace: '/w',
      createdAt: NOW,
      updatedAt: NOW,
      before: null,
      snapshotIds: snapshots.map((s) => s.id),
    },
    beforeSha: SHA_A,
    afterSha: SHA_B,
    branch: 'main',
    totals: { iterations: snapshots.length, filesChanged: 0, insertions: 0, deletions: 0 },
    snapshots,
    verification: {
      ok,
      checks: ok
        ? []
        : [{ snapshotId: 'snap-1', runId: 'r1', check: 'after-sha', ok: false, detail: 'gone | <b>' }],
    },
  });
}

describe('report renderers', () => {
  it('reads task and gate from the snapshot when recorded, else from the commit message', () => {
    const base = snapshot(1, []);
    const plain: Omit<ReportSnapshot, 'task' | 'gate'> & { task?: string | null; gate?: string | null } = {
      ...base,
    };
    delete plain.task;
    delete plain.gate;
    expect(withTaskAndGate({ ...plain, commitMessage: 'x\n\nTask: do it\nGate: npm test\n' })).toMatchObject({
      task: 'do it',
      gate: 'npm test',
    });
    expect(withTaskAndGate({ ...plain, commitMessage: 'x\n\nTask: \nGate:\n' })).toMatchObject({
      task: null,
      gate: null,
    });
    expect(withTaskAndGate({ ...plain, task: 'full\ntask', gate: null } as never)).toMatchObject({
      task: 'full\ntask',
      gate: null,
    });
  });

  it('Markdown: hostile text cannot break the table or inject HTML', () => {
    expect(cell('a | b\n<script>x</script> [l](u) `c`')).toBe(
      'a \\| b &lt;script&gt;x&lt;/script&gt; \\[l\\]\\(u\\) \\`c\\`',
    );
    const md = renderMarkdown(
      report([snapshot(1, [file('<img src=x>|.txt')], { task: 'two\nlines' })], false),
    );
    expect(md).toContain(':x: **failed** (1 of 1 checks)');
    expect(md).toContain('&lt;img src=x&gt;\\|.txt');
    expect(md).not.toMatch(/<img|<b>/);
    for (const line of md.split('\n').filter((l) => l.startsWith('|'))) expect(line.endsWith('|')).toBe(true);
  });

  it('Markdown: cut within the limit with a note when larger, and a <details> left open is closed', () => {
    const files = Array.from({ length: 3000 }, (_, i) => file(`dir/file-${i}.txt`));
    const full = renderMarkdown(report([snapshot(1, files)]));
    expect(full).not.toContain('was cut');
    const limit = 20_000;
    const cut = renderMarkdown(report([snapshot(1, files)]), limit);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(limit);
    expect(cut).toMatch(
      /was cut to stay within GitHub's 1 MiB step summary limit: \d+ more rows are not shown/,
    );
    expect(cut.split('<details>').length).toBe(cut.split('</details>').length);
    const huge = renderMarkdown(
      report([
        snapshot(
          1,
          Array.from({ length: 20_000 }, (_, i) => file(`${'d/'.repeat(30)}file-${i}.txt`)),
        ),
      ]),
    );
    expect(Buffer.byteLength(huge)).toBeLessThanOrEqual(1024 * 1024);
    expect(huge).toContain('was cut');
  });

  it('dotenv: AGENTGATE_* variables, single-line plain values, within 50 variables and 5 KB', () => {
    const text = renderDotenv(
      report([
        snapshot(1, [file('a')], {
          task: `evil "$(rm -rf /)" \`x\` \\ ${'long '.repeat(500)}\nnext=line`,
          gate: "it's",
        }),
      ]),
    );
    const lines = text.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(DOTENV_MAX_VARIABLES);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DOTENV_MAX_BYTES);
    for (const line of lines) expect(line).toMatch(/^AGENTGATE_[A-Z_]+=[^\n"'`$\\]*$/);
    const vars = Object.fromEntries(dotenvVariables(report([snapshot(1, [file('a')])])));
    expect(vars).toMatchObject({
      AGENTGATE_RUN_ID: 'r1',
      AGENTGATE_AFTER_SHA: SHA_B,
      AGENTGATE_VERIFIED: 'true',
      AGENTGATE_LAST_TASK: 't',
    });
    expect(text).toContain('AGENTGATE_LAST_GATE=it_s');
  });

  it('HTML escaping covers text and attributes', () => {
    expect(esc(`<a href="x" onclick='y'>&`)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;');
  });

  it('splits a patch per file, pairs sections with files, marks binaries and cuts huge diffs at a line end', () => {
    const patch = [
      'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+diff --git y\n',
      'diff --git a/b.bin b/b.bin\nnew file mode 100644\nindex 0..3\nGIT binary patch\nliteral 3\nKcmZQz\n\nliteral 0\nKcmV+b\n\n',
      'diff --git a/c.txt b/c.txt\nold mode 100644\nnew mode 100755\n',
    ].join('');
    const sections = splitPatch(patch);
    expect(sections).toHaveLength(3);
    expect(sections.join('')).toBe(patch);
    const diffs = fileDiffs([file('a.txt'), file('b.bin', { binary: true }), file('c.txt')], patch);
    expect(diffs.map((d) => [d.binary, d.truncated])).toEqual([
      [false, false],
      [true, false],
      [false, false],
    ]);
    expect(diffs[1]?.diff).toBe('');
    expect(diffs[0]?.diff).toContain('+diff --git y');
    const cut = fileDiffs([file('a.txt')], sections[0] as string, 60)[0];
    expect(cut?.truncated).toBe(true);
    expect(cut?.diff.endsWith('\n')).toBe(true);
    expect(Buffer.byteLength(cut?.diff ?? '')).toBeLessThanOrEqual(60);
    expect(splitPatch('')).toEqual([]);
  });
});
