import { describe, expect, it } from 'vitest';
import {
  renderDotenv,
  dotenvVariables,
  DOTENV_MAX_BYTES,
  DOTENV_MAX_VARIABLES,
  withinDotenvBytes,
} from '../../src/report/dotenv.js';
import { esc, writeHtml } from '../../src/report/html.js';
import { renderMarkdown, cell } from '../../src/report/markdown.js';
import { withTaskAndGate } from '../../src/report/model.js';
import { DiffBudget, fileDiffs } from '../../src/report/patches.js';
import { showBidi, showPath } from '../../src/report/visible.js';
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
    artifactsPath: '/h/artifacts/r1',
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

  it('Markdown: a dollar sign cannot start GitHub math, nor www. an autolink', () => {
    expect(cell('Set $HOME and $PATH, pay $$5$$')).toBe('Set \\$HOME and \\$PATH, pay \\$\\$5\\$\\$');
    expect(cell('see www.evil.example and WWW.x.y')).toBe('see www\\.evil.example and WWW\\.x.y');
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

  it('dotenv keeps the workspace and the branch whole: only free text is folded and cut', () => {
    const workspace = `/w/${'deep  dir/'.repeat(30)}end`;
    const branch = `agent/${'b'.repeat(250)}`;
    const r = report([snapshot(1, [file('a')], { task: `${'word  '.repeat(100)}` })]);
    const vars = Object.fromEntries(dotenvVariables({ ...r, branch, run: { ...r.run, workspace } }));
    expect(vars.AGENTGATE_WORKSPACE).toBe(workspace);
    expect(vars.AGENTGATE_BRANCH).toBe(branch);
    expect(vars.AGENTGATE_LAST_TASK).toBe('word '.repeat(40));
  });

  it('dotenv: a variable too long for the 5 KB is left out, not every variable after it', () => {
    const workspace = `/w/${'d'.repeat(240)}/`.repeat(20);
    const r = report([snapshot(1, [file('a')])]);
    const text = renderDotenv({
      ...r,
      run: { ...r.run, workspace },
      gates: { iterations: [], summary: [] },
    });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DOTENV_MAX_BYTES);
    const names = text
      .trimEnd()
      .split('\n')
      .map((l) => l.slice(0, l.indexOf('=')));
    expect(names).not.toContain('AGENTGATE_WORKSPACE');
    expect(names).toEqual(
      expect.arrayContaining(['AGENTGATE_GENERATED_AT', 'AGENTGATE_GATES', 'AGENTGATE_GATES_FAILED']),
    );
  });

  it("dotenv stays under GitLab's 5 KB, which refuses a file of 5,120 bytes or more (size < dotenv_size)", () => {
    // GitLab's ParseDotenvArtifactService: `unless artifact.file.size < dotenv_size_limit`, 5.kilobytes.
    const line = (n: number): [string, string] => ['AGENTGATE_X', 'x'.repeat(n - 'AGENTGATE_X=\n'.length)];
    expect(Buffer.byteLength(withinDotenvBytes([line(DOTENV_MAX_BYTES)]))).toBe(0);
    expect(Buffer.byteLength(withinDotenvBytes([line(DOTENV_MAX_BYTES - 1)]))).toBe(DOTENV_MAX_BYTES - 1);
    const two = withinDotenvBytes([line(DOTENV_MAX_BYTES - 10), ['AGENTGATE_Y', '12345678']]);
    expect(Buffer.byteLength(two)).toBeLessThan(DOTENV_MAX_BYTES);
    expect(two).not.toContain('AGENTGATE_Y');
  });

  it('HTML escaping covers text and attributes', () => {
    expect(esc(`<a href="x" onclick='y'>&`)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;');
  });

  it('splits a streamed patch per file, pairs sections with files and marks binaries, however it is chunked', async () => {
    const patch = [
      'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+diff --git y\n',
      'diff --git a/b.bin b/b.bin\nnew file mode 100644\nindex 0..3\nGIT binary patch\nliteral 3\nKcmZQz\n\nliteral 0\nKcmV+b\n\n',
      'diff --git a/c.txt b/c.txt\nold mode 100644\nnew mode 100755\n',
    ];
    const files = [file('a.txt'), file('b.bin'), file('c.txt')];
    for (const size of [1, 7, 1 << 20]) {
      const budget = new DiffBudget(LIMITS);
      const diffs = await all(fileDiffs(files, chunked(patch.join(''), size), budget));
      expect(diffs.map((d) => [d.diff, d.binary, d.tooLarge])).toEqual([
        [patch[0], false, false],
        ['', true, false],
        [patch[2], false, false],
      ]);
      expect(budget.remaining).toBe(LIMITS.maxTotalDiffBytes - Buffer.byteLength(patch[0] + patch[2]));
    }
    expect(await all(fileDiffs([], chunked('', 1), new DiffBudget(LIMITS)))).toEqual([]);
  });

  it('decodes multi-byte characters split anywhere, and keeps nothing of a chunk once the next is asked for', async () => {
    const patch = [
      'diff --git a/é.txt b/é.txt\n--- a/é.txt\n+++ b/é.txt\n@@ -1 +1 @@\n-ça\n+€ 😀 naïve\n',
      `diff --git a/long.txt b/long.txt\n@@ -0,0 +1 @@\n+${'ü'.repeat(40_000)}\n`,
      'diff --git a/z.txt b/z.txt\n@@ -0,0 +1 @@\n+∑\n',
    ];
    const files = [file('é.txt'), file('long.txt'), file('z.txt')];
    for (const size of [1, 2, 3, 5, 4096, 1 << 20]) {
      const diffs = await all(fileDiffs(files, reused(patch.join(''), size), new DiffBudget(LIMITS)));
      expect(diffs.map((d) => d.diff)).toEqual(patch);
    }
  });

  it('a type change (two sections) stays one file; a quoted name pairs in order', async () => {
    const typechange =
      'diff --git a/l b/l\ndeleted file mode 100644\n--- a/l\n+++ /dev/null\n@@ -1 +0,0 @@\n-t\n' +
      'diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+target\n';
    const quoted = 'diff --git "a/tab\\there" "b/tab\\there"\nnew file mode 100644\n';
    const diffs = await all(
      fileDiffs(
        [file('l', { status: 'typechange' }), file('tab\there', { status: 'added' })],
        chunked(typechange + quoted, 5),
        new DiffBudget(LIMITS),
      ),
    );
    expect(diffs.map((d) => d.diff)).toEqual([typechange, quoted]);
  });

  it("a quoted name's type change stays one file: the next file never takes its second section", async () => {
    const typechange =
      'diff --git "a/y\\"q" "b/y\\"q"\ndeleted file mode 100644\n--- "a/y\\"q"\n+++ /dev/null\n@@ -1 +0,0 @@\n-t\n' +
      'diff --git "a/y\\"q" "b/y\\"q"\nnew file mode 120000\n--- /dev/null\n+++ "b/y\\"q"\n@@ -0,0 +1 @@\n+target\n';
    const next = 'diff --git a/z b/z\n--- a/z\n+++ b/z\n@@ -1 +1 @@\n-1\n+2\n';
    for (const size of [3, 1000]) {
      const diffs = await all(
        fileDiffs(
          [file('y"q', { status: 'typechange' }), file('z')],
          chunked(typechange + next, size),
          new DiffBudget(LIMITS),
        ),
      );
      expect(diffs.map((d) => d.diff)).toEqual([typechange, next]);
    }
  });

  it('embeds nothing of a file over the per-file limit, nor of files past the total, and keeps bounded memory', async () => {
    const section = (name: string, body: string) =>
      `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n${body}`;
    const small = section('small.txt', '+x\n');
    // One line of 200 KB with no newline for a long stretch: passed on, never buffered whole.
    const huge = section('huge.txt', `+${'y'.repeat(200_000)}\n`);
    const later = section('later.txt', '+z\n');
    const limits = { maxFileDiffBytes: 1000, maxTotalDiffBytes: Buffer.byteLength(small) + 10 };
    const budget = new DiffBudget(limits);
    const diffs = await all(
      fileDiffs(
        [file('small.txt'), file('huge.txt'), file('later.txt')],
        chunked(small + huge + later, 4096),
        budget,
      ),
    );
    expect(diffs.map((d) => [d.diff, d.tooLarge])).toEqual([
      [small, false],
      ['', true],
      ['', true], // fits its own limit, not what is left of the total
    ]);
    expect(budget.remaining).toBe(10);
    // The next iteration shares the same budget.
    const next = await all(fileDiffs([file('a')], chunked(section('a', '+1\n'), 3), budget));
    expect(next[0]?.tooLarge).toBe(true);
  });

  it('shows bidirectional-text controls as escapes in HTML, Markdown and embedded diffs', async () => {
    const name = 'invoice\u202Efdp.sh';
    expect(showBidi(name)).toBe('invoice<U+202E>fdp.sh');
    expect(showBidi('\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C')).toBe(
      '<U+202A><U+202B><U+202C><U+202D><U+2066><U+2067><U+2068><U+2069><U+200E><U+200F><U+061C>',
    );
    expect(esc(name)).toBe('invoice&#60;U+202E&#62;fdp.sh');
    expect(cell(name)).toBe('invoice&lt;U\\+202E&gt;fdp.sh');
    const md = renderMarkdown(report([snapshot(1, [file(name)], { task: `Add ${name}` })]));
    expect(md).not.toMatch(/[\u202a-\u202e]/);
    expect(md).toContain('invoice&lt;U\\+202E&gt;fdp.sh');
    const diff = `diff --git a/${name} b/${name}\nnew file mode 100644\n`;
    const [embedded] = await all(fileDiffs([file(name)], chunked(diff, 3), new DiffBudget(LIMITS)));
    expect(embedded?.diff).toBe(diff.replace(/\u202E/g, '<U+202E>'));
  });
});

describe('report renderers: names with invisible characters', () => {
  it('shows zero-width and other invisible characters of a file name, in HTML and Markdown alike', () => {
    const names = [
      'package\u200b.json',
      'a\u00adb',
      'c\u2060d',
      '\ufeffe',
      'f\u200dg',
      'h\u0085i',
      'j\u2028k',
    ];
    const shown = [
      'package<U+200B>.json',
      'a<U+00AD>b',
      'c<U+2060>d',
      '<U+FEFF>e',
      'f<U+200D>g',
      'h<U+0085>i',
      'j<U+2028>k',
    ];
    expect(names.map(showPath)).toEqual(shown);
    // Markdown shows a line break in a name as the HTML page does, not as a space.
    const md = renderMarkdown(
      report([
        snapshot(
          1,
          [...names, 'nl\nname.txt'].map((n) => file(n)),
        ),
      ]),
    );
    for (const s of [...shown, 'nl<U+000A>name.txt']) expect(md).toContain(cell(s));
    for (const c of ['\u00ad', '\u200b', '\u200d', '\u2060', '\ufeff', '\u0085', '\u2028'])
      expect(md).not.toContain(c);
    expect(md).not.toContain('nl name.txt');
  });

  it("marks an iteration whose agent failed or was killed (iterate's agent outcome), in Markdown and HTML", async () => {
    const r = report([
      snapshot(1, [file('a.txt')], { agent: { exitCode: 0, signal: null, durationMs: 5 } }),
      snapshot(2, [file('b.txt')], { agent: { exitCode: 1, signal: null, durationMs: 5 } }),
      snapshot(3, [file('c.txt')], { agent: { exitCode: null, signal: 'SIGKILL', durationMs: 5 } }),
      snapshot(4, [file('d.txt')]),
    ]);
    const rows = renderMarkdown(r)
      .split('\n')
      .filter((l) => /^\| \d/.test(l));
    expect(rows.map((l) => l.split(' | ')[0])).toEqual([
      '| 1',
      '| 2 _(agent exited 1)_',
      '| 3 _(agent ended by SIGKILL)_',
      '| 4',
    ]);
    let html = '';
    await writeHtml(
      { report: r, diffs: async () => undefined, assets: { diff2htmlJs: '', diff2htmlCss: '' } },
      async (part) => {
        html += part;
      },
    );
    const cells = [...html.matchAll(/<tr data-iteration="(\d+)"[^>]*><td class="num">(.*?)<\/td>/g)].map(
      (m) => [m[1], m[2]?.replace(/<[^>]*>/g, '')],
    );
    expect(cells).toEqual([
      ['1', '1'],
      ['2', '2 agent exited 1'],
      ['3', '3 agent ended by SIGKILL'],
      ['4', '4'],
    ]);
  });
});

const LIMITS = { maxFileDiffBytes: 1 << 20, maxTotalDiffBytes: 1 << 20 };

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** `text` as a stream of chunks of `size` bytes (cutting through lines and characters). */
/** As readChunks hands them over: every chunk in one buffer, scribbled over once the next is asked for. */
async function* reused(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  const buffer = Buffer.alloc(size);
  for (let at = 0; at < bytes.length; at += size) {
    const n = bytes.copy(buffer, 0, at, at + size);
    yield buffer.subarray(0, n);
    buffer.fill(0xff);
  }
}

async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
