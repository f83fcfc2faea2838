/** The directory the process runs in, or undefined when it has been deleted (a shell may still stand in it). */
export function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
