/** Commands with subcommands: `checkpoint track`, ... (`gate` alone is a command too). */
export const COMMAND_GROUPS: readonly string[] = ['checkpoint', 'gate', 'hook'];
