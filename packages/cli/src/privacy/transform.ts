import { shortenHome } from './home-paths.js';
import { redactString } from './redact.js';
import { mapStrings, newPlaces, type Places, type StringMap } from './rewrite-strings.js';
import { UnchangedStrings } from './unchanged-strings.js';

/** Privacy options of an export (the `report` command). */
export interface Privacy {
  redact: boolean;
  shortHome: boolean;
}

/** No redaction, no shortening: what `cctrail export` writes. */
export const NO_PRIVACY: Privacy = { redact: false, shortHome: false };

/**
 * What a privacy transform changed: the distinct secrets it replaced (each with the rule that found it) and the
 * home paths it shortened.
 */
export interface PrivacyCounts {
  secrets: Map<string, string>;
  shortened: number;
}

/** A transform of JSON values (see `privacyTransform`). */
export type Transform = <T>(value: T) => T;

/**
 * The privacy options as a transform of JSON values, in one walk over their strings: the value is returned
 * transformed and left as it is (an object none of whose strings change is returned itself; see `mapStrings`).
 * Text is kept as written otherwise: bidirectional control characters are the renderer's to show (the report's
 * pages and search show each as a visible mark).
 *
 * @param privacy What to rewrite.
 * @param counts Collects the secrets replaced and counts the home paths shortened (a fresh one by default).
 */
export function privacyTransform(
  privacy: Privacy,
  counts: PrivacyCounts = { secrets: new Map(), shortened: 0 },
): Transform {
  const map = stringMap(privacy, counts);
  if (map === null) return <T>(value: T): T => value;
  return <T>(value: T): T => mapStrings(value, map);
}

/**
 * A session transformed as `transform(session)` transforms it (the same value, the same secrets found in the same
 * order), its entries one at a time: each entry, transformed, is handed to `each` at once, so that a reader of every
 * entry (the report's search, `cctrail report`) takes what it needs in the same walk, while the entry is in the
 * cache, instead of walking the entries again. The session's own keys (the model's names) are not transformed.
 *
 * @param session A value with `entries` (a session).
 * @param transform A privacy transform (`privacyTransform`).
 * @param each Given each entry as transformed, in order.
 */
export function transformEach<E, S extends { entries: readonly E[] }>(
  session: S,
  transform: Transform,
  each: (entry: S['entries'][number]) => void,
): S {
  let copy: S | null = null;
  for (const key in session) {
    const value = session[key];
    const mapped =
      key === 'entries'
        ? (transformEntries(value as S['entries'], transform, each) as typeof value)
        : transform(value);
    if (mapped === value) continue;
    copy ??= { ...session };
    copy[key] = mapped;
  }
  return copy ?? session;
}

/** The entries transformed one by one, each handed to `each`; the same array when none changed. */
function transformEntries<E>(
  entries: readonly E[],
  transform: Transform,
  each: (entry: E) => void,
): readonly E[] {
  let copy: E[] | null = null;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as E;
    const mapped = transform(entry);
    each(mapped);
    if (mapped === entry) continue;
    copy ??= entries.slice();
    copy[i] = mapped;
  }
  return copy ?? entries;
}

// Strings shorter than this are remembered in a set (`short`), longer ones by `UnchangedStrings`.
const REMEMBERED_SHORTEST = 64;
// Short strings remembered, at most, then the set starts over.
const SHORT_MOST = 1 << 16;
// Object keys are few and come again in every entry (`type`, `text`, `input`): each is redacted once, up to this
// many keys of at most this length, then the memo starts over.
const KEYS_MOST = 4096;
const KEY_LONGEST = 64;

/** What the transform does to a string value and to a key, or null when it does nothing. */
function stringMap(privacy: Privacy, counts: PrivacyCounts): StringMap | null {
  const redact = (text: string): string => redactString(text, counts.secrets);
  const shorten = (text: string): string => {
    const result = shortenHome(text);
    if (result.count === 0) return text;
    counts.shortened += result.count;
    return result.text;
  };
  const each =
    privacy.redact && privacy.shortHome
      ? (text: string) => shorten(redact(text))
      : privacy.redact
        ? redact
        : privacy.shortHome
          ? shorten
          : null;
  if (each === null) return null;
  // A string left unchanged changes nothing when it comes again (nothing is counted for it either).
  const unchanged = new UnchangedStrings();
  const short = new Set<string>();
  const value = (text: string): string => {
    if (text.length < REMEMBERED_SHORTEST) {
      if (short.has(text)) return text;
      const out = each(text);
      if (out === text) {
        if (short.size >= SHORT_MOST) short.clear();
        short.add(text);
      }
      return out;
    }
    const print = unchanged.find(text);
    if (print === -1) return text;
    const out = each(text);
    if (out === text) unchanged.add(text, print);
    return out;
  };
  const places = placesFor(privacy);
  if (!privacy.redact) return { value, places };
  // A key redacted again counts the same secrets (each once), so a remembered key's result stands for it.
  const keys = new Map<string, string>();
  const key = (text: string): string => {
    if (text.length > KEY_LONGEST) return redact(text);
    let out = keys.get(text);
    if (out === undefined) {
      if (keys.size >= KEYS_MOST) keys.clear();
      out = redact(text);
      keys.set(text, out);
    }
    return out;
  };
  return { value, key, places };
}

// The places of the transforms (`Places`), by their options: transforms of the same options are the same function of
// a string (what they count is of strings they change), so one set of places serves them all, made once. A new
// transform starts them empty: what they remember (values of a session) is then kept alive for one session at most.
const PLACES = new Map<string, Places>();

function placesFor({ redact, shortHome }: Privacy): Places {
  const options = `${redact}/${shortHome}`;
  const places = PLACES.get(options);
  if (places === undefined) {
    const made = newPlaces();
    PLACES.set(options, made);
    return made;
  }
  places.keys.fill(undefined);
  places.values.fill(undefined);
  return places;
}

/**
 * How many distinct secrets each rule found.
 *
 * @param secrets What a privacy transform collected: each secret's value and the rule that found it.
 */
export function countByRule(secrets: ReadonlyMap<string, string>): Record<string, number> {
  const byRule: Record<string, number> = Object.create(null);
  for (const kind of secrets.values()) byRule[kind] = (byRule[kind] ?? 0) + 1;
  return { ...byRule };
}
