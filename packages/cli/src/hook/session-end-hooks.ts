import { CliError } from '../command-line/errors.js';
import { isOurCommand } from './command-line.js';

/**
 * The `hooks.SessionEnd` part of Claude Code's settings, as its documentation shapes it —
 * `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}}` — and the
 * edits `cctrail hook install` / `uninstall` make to it: they touch cctrail's own entry only. SessionEnd takes
 * an optional `matcher` on the reason the session ended; cctrail's group has none, so it runs for every reason.
 */

/** Seconds Claude Code gives the hook. SessionEnd hooks share a 1.5 s budget unless a hook asks for more (up to 60 s). */
const HOOK_TIMEOUT_SECONDS = 60;

/** The event the hook runs on. */
const EVENT = 'SessionEnd';

type Json = Record<string, unknown>;

/** What `installHook` did. */
export type InstallOutcome = 'added' | 'updated' | 'unchanged';

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The `SessionEnd` groups of a settings object, checked against the documented shape; undefined when there
 * are none. Throws a `CliError` naming the place when the shape is not Claude Code's, so nothing is changed.
 */
function sessionEndGroups(settings: Json, file: string): Json[] | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw shapeError(file, '"hooks" is not an object');
  const groups = hooks[EVENT];
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups)) throw shapeError(file, `"hooks.${EVENT}" is not a list`);
  for (const [index, group] of groups.entries()) {
    if (!isObject(group) || !Array.isArray(group.hooks)) {
      throw shapeError(file, `"hooks.${EVENT}[${index}]" is not {"hooks": [...]}`);
    }
  }
  return groups as Json[];
}

function shapeError(file: string, what: string): CliError {
  return new CliError(`${file}: ${what}, as Claude Code's settings have it; nothing was changed`, {
    hint: 'Fix the file (see https://code.claude.com/docs/en/hooks), then run the command again.',
  });
}

function entriesOf(group: Json): unknown[] {
  return group.hooks as unknown[];
}

function isOurs(entry: unknown): boolean {
  return isObject(entry) && isOurCommand(entry.command);
}

/**
 * The command of cctrail's SessionEnd hook in a settings object, or null when there is none.
 *
 * @param settings The parsed settings file.
 * @param file Its path, for error messages.
 */
export function findHook(settings: Json, file: string): string | null {
  for (const group of sessionEndGroups(settings, file) ?? []) {
    const entry = entriesOf(group).find(isOurs);
    if (isObject(entry)) return entry.command as string;
  }
  return null;
}

/**
 * Adds cctrail's SessionEnd hook to a settings object, or updates the one already there (its command and
 * timeout); a second copy of it is removed. Every other key, event and hook stays as it was, in its place.
 *
 * @param settings The parsed settings file (not changed).
 * @param command The hook's shell command.
 * @param file Its path, for error messages.
 * @returns The new settings and what was done.
 */
export function installHook(
  settings: Json,
  command: string,
  file: string,
): { settings: Json; outcome: InstallOutcome } {
  const next = structuredClone(settings);
  const entry = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
  const groups = sessionEndGroups(next, file);
  const ours: Json[] = [];
  for (const group of groups ?? [])
    for (const hook of entriesOf(group)) if (isOurs(hook)) ours.push(hook as Json);
  const [first, ...copies] = ours;
  if (first !== undefined) {
    let outcome: InstallOutcome = copies.length > 0 ? 'updated' : 'unchanged';
    if (first.type !== entry.type || first.command !== command || first.timeout !== entry.timeout) {
      Object.assign(first, entry);
      outcome = 'updated';
    }
    const emptied = new Set<Json>();
    for (const group of groups ?? []) {
      const kept = entriesOf(group).filter((hook) => !copies.includes(hook as Json));
      if (kept.length === entriesOf(group).length) continue;
      group.hooks = kept;
      if (kept.length === 0) emptied.add(group);
    }
    if (groups) removeEmptied(next, groups, emptied);
    return { settings: next, outcome };
  }
  const hooks = isObject(next.hooks) ? next.hooks : {};
  next.hooks = hooks;
  hooks[EVENT] = [...(groups ?? []), { hooks: [entry] }];
  return { settings: next, outcome: 'added' };
}

/**
 * Removes cctrail's SessionEnd hook from a settings object. A group left without hooks by that is removed,
 * then `SessionEnd` and `hooks` if they became empty because of it; what was empty before stays.
 *
 * @param settings The parsed settings file (not changed).
 * @param file Its path, for error messages.
 * @returns The new settings and how many entries were removed.
 */
export function uninstallHook(settings: Json, file: string): { settings: Json; removed: number } {
  const next = structuredClone(settings);
  const groups = sessionEndGroups(next, file);
  let removed = 0;
  const emptied = new Set<Json>();
  for (const group of groups ?? []) {
    const kept = entriesOf(group).filter((hook) => !isOurs(hook));
    if (kept.length === entriesOf(group).length) continue;
    removed += entriesOf(group).length - kept.length;
    group.hooks = kept;
    if (kept.length === 0) emptied.add(group);
  }
  if (groups) removeEmptied(next, groups, emptied);
  return { settings: next, removed };
}

/** Drops the groups cctrail emptied, then `SessionEnd` and `hooks` when that left them empty. */
function removeEmptied(settings: Json, groups: Json[], emptied: Set<Json>): void {
  if (emptied.size === 0) return;
  const hooks = settings.hooks as Json;
  const left = groups.filter((group) => !emptied.has(group));
  if (left.length > 0) {
    hooks[EVENT] = left;
    return;
  }
  delete hooks[EVENT];
  if (Object.keys(hooks).length === 0) delete settings.hooks;
}
