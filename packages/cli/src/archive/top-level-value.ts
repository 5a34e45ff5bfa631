/**
 * Replaces the value of one top-level key in a JSON object's text that arrives in pieces, without parsing it:
 * the text is scanned for its structure only (strings, nesting), and passed through unchanged but for that value.
 * Used to correct a session file's `duplicateOf` once duplicates are known, however large the file.
 *
 * @param pieces The object's JSON text, in pieces.
 * @param key The top-level key (a key without characters that need escaping).
 * @param value The JSON text of the new value.
 * @throws When the key is not in the object or its value is not `null` or a string.
 */
export async function* withTopLevelValue(
  pieces: AsyncIterable<string>,
  key: string,
  value: string,
): AsyncGenerator<string> {
  const scan = new Scanner(key);
  for await (const piece of pieces) {
    if (scan.state === 'done') {
      yield piece;
      continue;
    }
    const kept = scan.feed(piece, value);
    if (kept !== '') yield kept;
  }
  if (scan.state !== 'done') throw new Error(`no top-level ${key} to replace`);
}

type State = 'scan' | 'colon' | 'value' | 'null' | 'string' | 'done';

const QUOTE = 34;
const BACKSLASH = 92;

/** The structure of the text read so far, and where the replacement stands. */
class Scanner {
  state: State = 'scan';
  readonly #key: string;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** At depth 1 after `{` or `,`: the next string is a key. */
  #keyNext = false;
  /** The key being read (only while it can still be `#key`), or null. */
  #keyText: string | null = null;
  /** Characters of `null` left to drop. */
  #left = 0;
  /** Where the next backslash of the current piece is (-1: none after the last one found). */
  #slashAt = -1;

  constructor(key: string) {
    this.#key = key;
  }

  /** Reads one piece; returns what of it is kept, with the new value in place of the old one. */
  feed(piece: string, value: string): string {
    let out = '';
    let from = 0;
    let i = 0;
    this.#slashAt = piece.indexOf('\\');
    while (i < piece.length && this.state !== 'done') {
      const code = piece.charCodeAt(i);
      if (this.state === 'null') {
        i++;
        if (--this.#left === 0) this.#finish();
        from = i;
      } else if (this.state === 'string') {
        i++;
        if (this.#escaped) this.#escaped = false;
        else if (code === BACKSLASH) this.#escaped = true;
        else if (code === QUOTE) this.#finish();
        from = i;
      } else if (this.state === 'value' || this.state === 'colon') {
        if (code <= 0x20) {
          i++;
        } else if (this.state === 'colon') {
          if (code !== 0x3a) throw new Error(`no value after the top-level ${this.#key}`);
          this.state = 'value';
          i++;
        } else {
          out += piece.slice(from, i) + value;
          if (code === 0x6e) {
            this.state = 'null';
            this.#left = 4;
          } else if (code === QUOTE) {
            this.state = 'string';
            i++;
          } else throw new Error(`the top-level ${this.#key} is not null or a string`);
          from = i;
        }
      } else if (this.#inString) {
        i = this.#inStringAt(piece, i);
      } else {
        this.#structure(code);
        i++;
      }
    }
    return out + piece.slice(from);
  }

  /** Reads string characters from `i`; returns where to go on. Most of a file is strings: skip them fast. */
  #inStringAt(piece: string, i: number): number {
    if (this.#escaped) {
      this.#escaped = false;
      if (this.#keyText !== null) this.#keyText += piece[i];
      return i + 1;
    }
    if (this.#slashAt !== -1 && this.#slashAt < i) this.#slashAt = piece.indexOf('\\', i);
    const quote = piece.indexOf('"', i);
    // Plain characters up to the next quote or backslash.
    const stop = Math.min(
      quote === -1 ? piece.length : quote,
      this.#slashAt === -1 ? piece.length : this.#slashAt,
    );
    if (this.#keyText !== null) {
      this.#keyText += piece.slice(i, stop);
      if (this.#keyText.length > this.#key.length) this.#keyText = null;
    }
    if (stop === piece.length) return stop;
    if (stop === this.#slashAt) {
      this.#escaped = true;
      return stop + 1;
    }
    this.#inString = false;
    if (this.#keyText === this.#key) this.state = 'colon';
    this.#keyText = null;
    return stop + 1;
  }

  /** A character outside strings. */
  #structure(code: number): void {
    if (code === QUOTE) {
      this.#inString = true;
      this.#keyText = this.#keyNext ? '' : null;
      this.#keyNext = false;
    } else if (code === 0x7b || code === 0x5b) {
      this.#depth++;
      this.#keyNext = this.#depth === 1 && code === 0x7b;
    } else if (code === 0x7d || code === 0x5d) {
      this.#depth--;
    } else if (code === 0x2c) {
      this.#keyNext = this.#depth === 1;
    }
  }

  #finish(): void {
    this.state = 'done';
  }
}
