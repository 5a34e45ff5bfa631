import {
  readSettings,
  type SettingsPlace,
  type SettingsScope,
  settingsFiles,
  userSettingsFile,
} from './settings-files.js';

/** How long Claude Code keeps transcripts when no settings file says otherwise. */
const DEFAULT_CLEANUP_PERIOD_DAYS = 30;

/** The settings key Claude Code reads the retention from. */
export const CLEANUP_KEY = 'cleanupPeriodDays';

/** Where the retention in force comes from: a settings file that sets `cleanupPeriodDays`. */
interface RetentionSource {
  scope: SettingsScope;
  /** Absolute path of the file. */
  file: string;
}

/** Claude Code's transcript retention as its settings files give it. */
export interface Retention {
  /**
   * Days a transcript is kept after its last change: Claude Code deletes older ones when it starts. `0` only
   * when a file sets 0 (see `retentionNotice`).
   */
  days: number;
  /** The file whose value is in force; null for the default. */
  source: RetentionSource | null;
  /** The user settings file, where the key goes when no file sets it. */
  userFile: string;
  /** Files that cannot be used or hold a bad value, one sentence each (they are skipped, like unset). */
  problems: string[];
}

/**
 * Reads `cleanupPeriodDays` from Claude Code's settings files in its precedence order (managed, local
 * project, shared project, user) and returns the value in force. A file that is missing or does not set the
 * key is passed over; a file that is not valid JSON, or a value that is not a whole number of days, is
 * reported in `problems` and passed over too. Never throws.
 *
 * @param place The project folder (for project settings) and the environment (`CLAUDE_CONFIG_DIR`, `HOME`).
 * @example
 * ```ts
 * readRetention({ cwd: process.cwd(), env: process.env }).days; // 30 when nothing sets it
 * ```
 */
export function readRetention(place: SettingsPlace): Retention {
  const problems: string[] = [];
  const userFile = userSettingsFile(place.env);
  for (const { scope, file } of settingsFiles(place)) {
    const read = readSettings(file);
    if (read.kind === 'missing') continue;
    if (read.kind === 'problem') {
      problems.push(`${file} ${read.reason}; its ${CLEANUP_KEY} (if any) is not counted.`);
      continue;
    }
    if (!Object.hasOwn(read.value, CLEANUP_KEY)) continue;
    const value = read.value[CLEANUP_KEY];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
      return { days: value, source: { scope, file }, userFile, problems };
    }
    problems.push(
      `${file} sets ${CLEANUP_KEY} to ${JSON.stringify(value)}, which is not a whole number of days; ` +
        'it is not counted.',
    );
  }
  return { days: DEFAULT_CLEANUP_PERIOD_DAYS, source: null, userFile, problems };
}
