/**
 * Reads $GITHUB_OUTPUT / $GITHUB_ENV files by GitHub's rules, as the runner does: a line
 * `name=value`, or `name<<DELIMITER` followed by value lines up to a line that is exactly the
 * delimiter. Written here from the documented format, independently of src/ci.
 */
export function parseGithubFile(text: string): Record<string, string> {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (line === '') continue;
    const eq = line.indexOf('=');
    const heredoc = line.indexOf('<<');
    if (eq !== -1 && (heredoc === -1 || eq < heredoc)) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
      continue;
    }
    if (heredoc === -1) throw new Error(`invalid line ${i + 1}: ${line}`);
    const name = line.slice(0, heredoc);
    const delimiter = line.slice(heredoc + 2);
    if (name === '' || delimiter === '') throw new Error(`invalid heredoc at line ${i + 1}`);
    const value: string[] = [];
    for (i++; ; i++) {
      if (i >= lines.length) throw new Error(`missing delimiter ${delimiter}`);
      const l = (lines[i] as string).replace(/\r$/, '');
      if (l === delimiter) break;
      value.push(l);
    }
    out[name] = value.join('\n');
  }
  return out;
}
