/** The README's and the docs pages' command lines and loops, as a user would copy them. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** The README's shell code blocks that hold a `for` loop: each is run as written by readme-loops.test.ts. */
export function readmeShellLoops(): string[] {
  return codeBlocks(readFileSync(README, 'utf8'))
    .filter((b) => b.lang === 'sh' && /^\s*for /m.test(b.body))
    .map((b) => b.body);
}

/**
 * The scripts of the README's workflow steps (`run: |` in YAML code blocks) that hold a `for` loop,
 * dedented: what the runner hands to bash.
 */
export function readmeWorkflowLoops(): string[] {
  const scripts: string[] = [];
  for (const block of codeBlocks(readFileSync(README, 'utf8')).filter((b) => b.lang === 'yaml')) {
    const lines = block.body.split('\n');
    lines.forEach((line, at) => {
      const run = /^(\s*)(?:- )?run: \|\s*$/.exec(line);
      if (!run) return;
      const body: string[] = [];
      for (const next of lines.slice(at + 1)) {
        if (next.trim() !== '' && next.search(/\S/) <= (run[1] ?? '').length) break;
        body.push(next);
      }
      const indent = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.search(/\S/)));
      const script = body.map((l) => l.slice(indent)).join('\n');
      if (/^for /m.test(script)) scripts.push(`${script.trimEnd()}\n`);
    });
  }
  return scripts;
}
