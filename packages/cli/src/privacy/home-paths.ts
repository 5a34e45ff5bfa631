import { mapStrings } from './rewrite-strings.js';

// A home path starts a path, or follows `file://`; `/usr/home/x` is not one.
const HOME_PATHS = [
  /(?:(?<=file:\/\/)|(?<![\w/]))\/home\/[^/\s"'`]+(?=\/|\b)/g,
  /(?:(?<=file:\/\/)|(?<![\w/]))\/Users\/[^/\s"'`]+(?=\/|\b)/g,
  /\b[A-Za-z]:\\(?:\\)?Users\\(?:\\)?[^\\\s"'`]+(?=\\|\b)/g,
];

/** The project-folder form of a home path: `-home-alice-…`, `-Users-alice-…`. */
const HOME_SLUG = /^-(?:home|Users)-[^-]+(?=-|$)/;

/**
 * Replaces home-folder paths (`/home/<user>`, `/Users/<user>`, `C:\Users\<user>`) with `~`.
 *
 * @returns The new text and the number of replacements.
 */
export function shortenHome(text: string): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const pattern of HOME_PATHS) {
    out = out.replace(pattern, () => {
      count++;
      return '~';
    });
  }
  if (HOME_SLUG.test(out)) {
    out = out.replace(HOME_SLUG, '~');
    count++;
  }
  return { text: out, count };
}

/**
 * Replaces home-folder paths with `~` in every string of a value (object keys are left alone).
 *
 * @param value Any JSON value; it is left as it is.
 * @returns The value with its paths shortened (the same value when none is), and how many were shortened.
 */
export function shortenHomePaths<T>(value: T): { value: T; count: number } {
  let count = 0;
  const shortened = mapStrings(value, {
    value: (text) => {
      const result = shortenHome(text);
      count += result.count;
      return result.count > 0 ? result.text : text;
    },
  });
  return { value: shortened, count };
}
