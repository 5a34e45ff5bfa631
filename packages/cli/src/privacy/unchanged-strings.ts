/**
 * The strings a transform left unchanged, so that a copy of one (a tool's output is in its result block and in
 * `toolUseResult`; model names, paths and commands come again in every entry) is not scanned again. A string is
 * looked up by a fingerprint of its length and three of its characters, then compared (`===`) with the few
 * remembered under it: no hash of the whole text, which would be one more pass over it, and two strings of one
 * fingerprint most often differ in their first characters.
 */

// Up to this many characters or strings remembered, then the memo starts over (memory stays bounded when a lean
// session is transformed piece by piece); a fingerprint holds the latest few strings.
const REMEMBERED_MOST = 1 << 25;
const STRINGS_MOST = 1 << 18;
const PER_FINGERPRINT = 4;

/** The length and the first, middle and last code units of a non-empty string, mixed into a small integer. */
function fingerprint(text: string): number {
  const n = text.length;
  return (
    (n * 0x3c6ef + text.charCodeAt(0) * 961 + text.charCodeAt(n >> 1) * 31 + text.charCodeAt(n - 1)) &
    0x3fffffff
  );
}

/** Strings known to be left unchanged (see the module's comment). */
export class UnchangedStrings {
  /** By fingerprint: the one string remembered under it, or the few. */
  readonly #strings = new Map<number, string | string[]>();
  #chars = 0;
  #count = 0;

  /**
   * Looks a non-empty string up.
   *
   * @returns -1 when it is remembered, else its fingerprint (for `add`).
   */
  find(text: string): number {
    const print = fingerprint(text);
    const known = this.#strings.get(print);
    if (known === undefined) return print;
    if (typeof known === 'string') return known === text ? -1 : print;
    for (let i = 0; i < known.length; i++) if (known[i] === text) return -1;
    return print;
  }

  /**
   * Remembers a non-empty string.
   *
   * @param print Its fingerprint, as `find` returned it.
   */
  add(text: string, print: number): void {
    if (this.#chars > REMEMBERED_MOST || this.#count >= STRINGS_MOST) {
      this.#strings.clear();
      this.#chars = 0;
      this.#count = 0;
    }
    const known = this.#strings.get(print);
    if (known === undefined) this.#strings.set(print, text);
    else if (typeof known === 'string') this.#strings.set(print, [known, text]);
    else if (known.length < PER_FINGERPRINT) known.push(text);
    else known[this.#count % PER_FINGERPRINT] = text;
    this.#chars += text.length;
    this.#count++;
  }
}
