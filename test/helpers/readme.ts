/** The README's and the docs pages' command lines and loops, as a user would copy them. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const README = join(ROOT, 'README.md');
export const DOCS = join(ROOT, 'docs');

/** README.md and every Markdown page under docs/, as absolute paths. */
export function documentationFiles(): string[] {
  const pages = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(DOCS, f));
  return [README, ...pages];
}

/**
 * Every npx invocation of our CLI in the README and the docs pages (code blocks, inline code, YAML
 * `run:` steps), up to `&&`, a backtick or a comment.
 */
export function readmeNpxCommands(): string[] {
  return documentationFiles().flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bnpx\b[^`\n#&]*/g)]
      .map((m) => m[0].trim())
      .filter((c) => c.includes('agentgate-snapshot')),
  );
}

/** The README's whole lines that are an npx command and nothing else (in code blocks). */
export function readmeNpxLines(): string[] {
  return readFileSync(README, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('npx '));
}

/** The fenced code blocks of a Markdown text: the info string (`sh`, `yaml`, ...) and the body. */
export function codeBlocks(markdown: string): Array<{ lang: string; body: string }> {
  return [...markdown.matchAll(/^```([^\n`]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: (m[1] ?? '').trim(),
    body: m[2] ?? '',
  }));
}

/** A loop the documentation shows, and the page that shows it (relative to the repository). */
export interface DocumentedLoop {
  page: string;
  script: string;
}

function blocksOf(lang: string): Array<{ page: string; body: string }> {
  return documentationFiles().flatMap((file) =>
    codeBlocks(readFileSync(file, 'utf8'))
      .filter((b) => b.lang === lang)
      .map((b) => ({ page: relative(ROOT, file), body: b.body })),
  );
}

/** The shell code blocks of the README and docs/ that hold a `for` loop: readme-loops.test.ts runs each as written. */
export function documentedShellLoops(): DocumentedLoop[] {
  return blocksOf('sh')
    .filter((b) => /^\s*for /m.test(b.body))
    .map((b) => ({ page: b.page, script: b.body }));
}

/**
 * The CI scripts in the YAML code blocks of the README and docs/ (a GitHub step's `run: |`, a GitLab
 * `- |` list item) that hold a `for` loop, dedented: what the runner hands to bash.
 */
export function documentedWorkflowLoops(): DocumentedLoop[] {
  const loops: DocumentedLoop[] = [];
  for (const block of blocksOf('yaml')) {
    const lines = block.body.split('\n');
    lines.forEach((line, at) => {
      const start = /^(\s*)(?:- )?(?:run: )?\|\s*$/.exec(line);
      if (!start) return;
      const body: string[] = [];
      for (const next of lines.slice(at + 1)) {
        if (next.trim() !== '' && next.search(/\S/) <= (start[1] ?? '').length) break;
        body.push(next);
      }
      const indent = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.search(/\S/)));
      const script = body.map((l) => l.slice(indent)).join('\n');
      if (/^for /m.test(script)) loops.push({ page: block.page, script: `${script.trimEnd()}\n` });
    });
  }
  return loops;
}
