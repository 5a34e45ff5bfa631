import { neutralizeBidi } from './bidi.js';
import { shortenHome, shortenHomePaths } from './home-paths.js';
import { redactSecrets, redactText } from './redact.js';
import { rewriteStrings } from './rewrite-strings.js';

/** Privacy options of an export (the `report` command). */
export interface Privacy {
  redact: boolean;
  shortHome: boolean;
}

/** No redaction, no shortening: what `cctrail export` writes. */
export const NO_PRIVACY: Privacy = { redact: false, shortHome: false };

/** What a privacy transform changed: the distinct secrets it replaced and the home paths it shortened. */
export interface PrivacyCounts {
  secrets: Set<string>;
  shortened: number;
}

/** A transform of JSON values (see `privacyTransform`). */
export type Transform = <T>(value: T) => T;

/**
 * The privacy options as a transform of JSON values: strings are returned rewritten, objects and arrays are
 * rewritten in place. Redaction also shows bidirectional control characters as visible marks (`bidi.ts`).
 *
 * @param privacy What to rewrite.
 * @param counts Collects the secrets replaced and counts the home paths shortened (a fresh one by default).
 */
export function privacyTransform(
  privacy: Privacy,
  counts: PrivacyCounts = { secrets: new Set(), shortened: 0 },
): Transform {
  return <T>(value: T): T => {
    if (typeof value === 'string') {
      let text: string = value;
      if (privacy.redact) text = neutralizeBidi(redactText(text, counts.secrets).text).text;
      if (privacy.shortHome) {
        const result = shortenHome(text);
        counts.shortened += result.count;
        text = result.text;
      }
      return text as T;
    }
    if (value !== null && typeof value === 'object') {
      if (privacy.redact) {
        redactSecrets(value, counts.secrets);
        rewriteStrings(value, neutralizeBidi, { keys: true });
      }
      if (privacy.shortHome) counts.shortened += shortenHomePaths(value);
    }
    return value;
  };
}
