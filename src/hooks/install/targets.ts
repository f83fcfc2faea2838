import { join, resolve } from 'node:path';
import type { HookAgent } from '../../../types/hook-agents.js';

export type InstallScope = 'project' | 'user';

/**
 * Where an agent reads hooks and in which shape:
 * - `grouped`: `hooks.<Event>: [{ hooks: [{ type: "command", command }] }]` (Claude Code, Gemini, Qwen; Codex in TOML);
 * - `flat`: `hooks.<event>: [{ command }]` (Cursor, Windsurf) or `[{ type: "command", bash }]` (Copilot);
 * - `scripts`: one executable per event, named after it (Cline).
 */
export interface InstallTarget {
  agent: HookAgent;
  file: string;
  format: 'json' | 'toml' | 'scripts';
  shape: 'grouped' | 'flat' | 'copilot' | 'scripts';
  /** Comments allowed in the file (JSONC): kept as they are. */
  comments: boolean;
  /** The events we install, and (Copilot) the name each command passes with --event. */
  events: readonly string[];
  /** Top-level keys the file must have (Cursor's and Copilot's `version: 1`). */
  root?: Readonly<Record<string, unknown>>;
  /** Extra fields of our hook entry (Gemini's `name`, Windsurf's `show_output`). */
  extra?: Readonly<Record<string, unknown>>;
  /** What the user must do before the agent runs the hooks. */
  notes: readonly string[];
}

export interface TargetPlace {
  scope: InstallScope;
  /** The project (--project, the default): the workspace. */
  workspace: string;
  /** The user's home directory (--user). */
  homeDir: string;
  /**
   * Where the agents' own home variables are read (--user: CLAUDE_CONFIG_DIR, GEMINI_CLI_HOME,
   * QWEN_HOME, CODEX_HOME, COPILOT_HOME): default process.env.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Where `hook install AGENT` writes, for --project or --user. */
export function installTarget(agent: HookAgent, place: TargetPlace): InstallTarget {
  const base = place.scope === 'project' ? place.workspace : place.homeDir;
  const at = (project: string, user: string) => join(base, place.scope === 'project' ? project : user);
  // Each agent reads the user's file under its own home variable when set: $CLAUDE_CONFIG_DIR,
  // $QWEN_HOME, $CODEX_HOME and $COPILOT_HOME stand for the directory (~/.claude, ~/.qwen, ...),
  // $GEMINI_CLI_HOME for the home directory that holds .gemini.
  const env = place.env ?? process.env;
  const under = (variable: string, project: string, dir: string, file: string) => {
    const home = env[variable];
    return place.scope === 'user' && home !== undefined && home.trim() !== ''
      ? resolve(variable === 'QWEN_HOME' ? expandTilde(home, place.homeDir) : home, file)
      : at(project, join(dir, file));
  };
  switch (agent) {
    case 'claude-code':
      return grouped(
        agent,
        under('CLAUDE_CONFIG_DIR', '.claude/settings.json', '.claude', 'settings.json'),
        false,
        CLAUDE_EVENTS,
        [],
      );
    case 'qwen':
      return grouped(
        agent,
        under('QWEN_HOME', '.qwen/settings.json', '.qwen', 'settings.json'),
        true,
        QWEN_EVENTS,
        [],
      );
    case 'gemini':
      return {
        ...grouped(
          agent,
          under('GEMINI_CLI_HOME', '.gemini/settings.json', '.', '.gemini/settings.json'),
          true,
          GEMINI_EVENTS,
          [
            'Gemini CLI runs hooks unless hooksConfig.enabled is false, and only in a folder it trusts; "/hooks" in Gemini CLI lists them.',
          ],
        ),
        extra: { name: GEMINI_HOOK_NAME },
      };
    case 'codex':
      return {
        agent,
        file: under('CODEX_HOME', '.codex/config.toml', '.codex', 'config.toml'),
        format: 'toml',
        shape: 'grouped',
        comments: true,
        events: CLAUDE_EVENTS,
        notes: [
          'Codex skips hooks it has not trusted: start Codex, run /hooks, review the agentgate entries and trust them (again after each install that changed them).',
          ...(place.scope === 'project'
            ? [
                'Codex loads project hooks only when it trusts the project: trust it when Codex asks (or in ~/.codex/config.toml).',
              ]
            : []),
        ],
      };
    case 'cursor':
      return {
        agent,
        file: at('.cursor/hooks.json', '.cursor/hooks.json'),
        format: 'json',
        shape: 'flat',
        comments: false,
        events: ['sessionStart', 'beforeSubmitPrompt', 'afterFileEdit', 'afterShellExecution', 'stop'],
        root: { version: 1 },
        notes: ['Cursor reloads hooks.json by itself; check Settings > Hooks if the hooks do not show.'],
      };
    case 'copilot':
      return {
        agent,
        file: under('COPILOT_HOME', '.github/hooks/agentgate.json', '.copilot', 'hooks/agentgate.json'),
        format: 'json',
        shape: 'copilot',
        comments: false,
        // Never preToolUse: Copilot fails a command preToolUse hook closed on a non-zero exit.
        events: ['sessionStart', 'userPromptSubmitted', 'postToolUse', 'postToolUseFailure', 'agentStop'],
        root: { version: 1 },
        // The cloud agent reads only the repository's .github/hooks/*.json: ~/.copilot/hooks is not its concern.
        notes:
          place.scope === 'project'
            ? [
                'The command is an absolute path on this machine: the Copilot cloud agent (which reads .github/hooks/*.json from the default branch) cannot run it.',
              ]
            : [],
      };
    case 'windsurf':
      return {
        agent,
        file: at('.windsurf/hooks.json', '.codeium/windsurf/hooks.json'),
        format: 'json',
        shape: 'flat',
        comments: false,
        events: ['pre_user_prompt', 'post_write_code', 'post_run_command', 'post_cascade_response'],
        extra: { show_output: false },
        notes: [],
      };
    case 'cline':
      return {
        agent,
        file: at('.clinerules/hooks', 'Documents/Cline/Hooks'),
        format: 'scripts',
        shape: 'scripts',
        comments: false,
        events: ['TaskStart', 'TaskResume', 'UserPromptSubmit', 'PostToolUse', 'TaskComplete', 'TaskCancel'],
        notes: [
          'Cline runs these hooks unless "Enable Hooks" is off in its settings. On Windows the Cline extension runs only <Event>.ps1 files, which this install does not write.',
        ],
      };
  }
}

/** `~` and `~/...` (as Qwen Code reads QWEN_HOME) against the home directory; any other path as it is. */
function expandTilde(path: string, homeDir: string): string {
  if (path === '~') return homeDir;
  return /^~[\\/]/.test(path) ? join(homeDir, path.slice(2)) : path;
}

/** The name our Gemini hooks carry (`hooksConfig.disabled` may list it). */
export const GEMINI_HOOK_NAME = 'agentgate-checkpoints';

const CLAUDE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop'];
const QWEN_EVENTS = [...CLAUDE_EVENTS, 'PostToolUseFailure'];
const GEMINI_EVENTS = ['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent'];

function grouped(
  agent: HookAgent,
  file: string,
  comments: boolean,
  events: readonly string[],
  notes: readonly string[],
): InstallTarget {
  return { agent, file, format: 'json', shape: 'grouped', comments, events, notes };
}
