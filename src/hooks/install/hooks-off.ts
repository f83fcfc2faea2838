import { isOurCommand } from './command.js';
import { isRecord } from './entries.js';
import { GEMINI_HOOK_NAME, type InstallTarget } from './targets.js';

/**
 * What in the config file we install into keeps the agent from running our hooks, each as a note
 * that says what to change: the switches each agent documents for turning hooks off.
 * - Claude Code, Qwen Code: `"disableAllHooks": true`;
 * - Gemini CLI: `"hooksConfig": {"enabled": false}`, or our hook's name or command in `hooksConfig.disabled`;
 *   `"tools": {"enableHooks": false}`, the switch of the releases before hooksConfig; the same two
 *   keys inside `hooks` (those releases' place for them, which Gemini CLI still moves to
 *   hooksConfig where hooksConfig does not set them);
 * - Codex: `[features] hooks = false` (or its deprecated alias `codex_hooks`).
 */
export function hooksOffNotes(target: InstallTarget, config: Record<string, unknown>): string[] {
  const file = target.file;
  const why = 'so the agent runs none of the hooks installed here';
  switch (target.agent) {
    case 'claude-code':
    case 'qwen':
      return config.disableAllHooks === true
        ? [`${file} sets "disableAllHooks": true, ${why}: remove it (or set it to false)`]
        : [];
    case 'gemini': {
      const notes: string[] = [];
      if (isRecord(config.tools) && config.tools.enableHooks === false)
        notes.push(
          `${file} sets "tools.enableHooks": false, ${why} (in the releases that read it): remove it (or set it to true)`,
        );
      const enabled = geminiSwitch(config, 'enabled');
      if (enabled?.value === false)
        notes.push(`${file} sets "${enabled.key}": false, ${why}: remove it (or set it to true)`);
      const disabled = geminiSwitch(config, 'disabled');
      const list = Array.isArray(disabled?.value) ? disabled.value : [];
      if (list.some((d) => d === GEMINI_HOOK_NAME || isOurCommand(d, target.agent)))
        notes.push(
          `${file} lists our hook in "${disabled?.key}", so Gemini CLI skips it: take it out of that list (or enable it in /hooks)`,
        );
      return notes;
    }
    case 'codex': {
      const features = isRecord(config.features) ? config.features : {};
      return ['hooks', 'codex_hooks']
        .filter((key) => features[key] === false)
        .map((key) => `${file} sets [features] ${key} = false, ${why}: remove that line (or set it to true)`);
    }
    default:
      return [];
  }
}

/**
 * A Gemini CLI switch as Gemini reads it: `hooksConfig.<name>`, else `hooks.<name>` (where the
 * releases before hooksConfig kept it; Gemini still moves it over when hooksConfig has none), with
 * the key that set it; undefined when neither does.
 */
function geminiSwitch(
  config: Record<string, unknown>,
  name: 'enabled' | 'disabled',
): { key: string; value: unknown } | undefined {
  for (const table of ['hooksConfig', 'hooks'] as const) {
    const values = config[table];
    if (isRecord(values) && Object.hasOwn(values, name))
      return { key: `${table}.${name}`, value: values[name] };
  }
  return undefined;
}
