/**
 * Reads a session file's JSON text (as `sessionJson` writes it) item by item from its bytes, for a session too
 * large to be one string or one object graph: a session of a million lines writes about 1 GB of JSON, twice what
 * V8 holds in one string. Only one item of a listed array (an entry, a response) or one other top-level field is
 * held at a time, as its own bytes, then parsed alone.
 */

/** One piece of a session file: a whole top-level field, or one item of a listed top-level array. */
export interface SessionItem {
  /** The top-level field (`entries`, `responses`, `id`, …). */
  field: string;
  /** The item's position in its array; -1 for a whole field. */
  index: number;
  /** Its parsed value (undefined when the caller asked to skip the field). */
  value: unknown;
}

/** What `sessionItems` reads item by item, and what it does not parse. */
export interface SessionItemsOptions {
  /** Top-level arrays whose items are yielded one by one (other fields are yielded whole). */
  listed: ReadonlySet<string>;
  /** Fields (listed or not) whose text is scanned past without being parsed (their value is undefined). */
  skipped?: ReadonlySet<string>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the reader is in the top-level object. */
type Place =
  | 'open'
  | 'key-or-end'
  | 'key'
  | 'colon'
  | 'value'
  | 'items'
  | 'after-item'
  | 'after-field'
  | 'done';

/** The scan of one JSON value: its nesting, whether it is inside a string, its bytes so far. */
interface ValueScan {
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** A number, `true`, `false` or `null`: it ends at the first byte that cannot be part of it. */
  scalar: boolean;
  parts: Uint8Array[];
  /** False for a skipped field: its bytes are not kept. */
  keep: boolean;
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** A copy of part of a chunk, for a value that goes on in the next one (a stream may reuse its buffers). */
function copyOf(chunk: Uint8Array, from: number, to: number): Uint8Array {
  return Uint8Array.prototype.slice.call(chunk, from, to);
}

const utf8 = new TextDecoder();

function concat(parts: readonly Uint8Array[]): string {
  if (parts.length === 1) return utf8.decode(parts[0]);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return utf8.decode(all);
}

/** The reader's state between chunks. */
class ItemReader {
  place: Place = 'open';
  key = '';
  keyParts: Uint8Array[] = [];
  keyEscaped = false;
  index = 0;
  scan: ValueScan | null = null;
  inArray = false;
  readonly out: SessionItem[] = [];

  constructor(readonly options: SessionItemsOptions) {}

  fail(what: string): never {
    throw new Error(`not a session file: ${what}`);
  }

  startValue(chunk: Uint8Array, at: number): void {
    const b = chunk[at]!;
    const keep = !this.options.skipped?.has(this.key);
    this.scan = { depth: 0, inString: false, escaped: false, scalar: false, parts: [], keep };
    if (b !== 0x7b && b !== 0x5b && b !== QUOTE) this.scan.scalar = true;
  }

  endValue(): void {
    const scan = this.scan!;
    const value = scan.keep ? JSON.parse(concat(scan.parts)) : undefined;
    this.out.push({ field: this.key, index: this.inArray ? this.index++ : -1, value });
    this.scan = null;
  }

  /** Scans the current value from `at`: returns where it ended (past its last byte), or -1 at the chunk's end. */
  scanValue(chunk: Uint8Array, at: number): number {
    const scan = this.scan!;
    let i = at;
    const n = chunk.length;
    if (scan.scalar) {
      while (i < n) {
        const b = chunk[i]!;
        if (b === 0x2c || b === 0x5d || b === 0x7d || isSpace(b)) break;
        i++;
      }
    } else {
      let { depth, inString, escaped } = scan;
      for (; i < n; i++) {
        const b = chunk[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) {
            inString = false;
            if (depth === 0) {
              i++;
              break;
            }
          }
        } else if (b === QUOTE) inString = true;
        else if (b === 0x7b || b === 0x5b) depth++;
        else if (b === 0x7d || b === 0x5d) {
          depth--;
          if (depth === 0) {
            i++;
            break;
          }
        }
      }
      const ended = !inString && depth === 0 && i > at;
      Object.assign(scan, { depth, inString, escaped });
      if (!ended) {
        if (scan.keep) scan.parts.push(copyOf(chunk, at, chunk.length));
        return -1;
      }
      if (scan.keep) scan.parts.push(chunk.subarray(at, i));
      return i;
    }
    if (scan.keep) scan.parts.push(i < n ? chunk.subarray(at, i) : copyOf(chunk, at, i));
    return i < n ? i : -1;
  }

  /** Reads one chunk; the items it completes are in `out`. */
  read(chunk: Uint8Array): void {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.scan) {
        const end = this.scanValue(chunk, i);
        if (end < 0) return;
        this.endValue();
        this.place = this.inArray ? 'after-item' : 'after-field';
        i = end;
        continue;
      }
      const b = chunk[i]!;
      if (this.place === 'key') {
        i = this.readKey(chunk, i);
        continue;
      }
      if (isSpace(b)) {
        i++;
        continue;
      }
      i = this.step(chunk, i, b);
    }
  }

  /** Reads a top-level key from `at` (inside its quotes). */
  readKey(chunk: Uint8Array, at: number): number {
    let i = at;
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.keyEscaped) this.keyEscaped = false;
      else if (b === BACKSLASH) this.keyEscaped = true;
      else if (b === QUOTE) break;
    }
    this.keyParts.push(copyOf(chunk, at, i));
    if (i === chunk.length) return i;
    this.key = JSON.parse(`"${concat(this.keyParts)}"`) as string;
    this.keyParts = [];
    this.place = 'colon';
    return i + 1;
  }

  /** One structural byte outside a value. */
  step(chunk: Uint8Array, i: number, b: number): number {
    switch (this.place) {
      case 'open':
        if (b !== 0x7b) this.fail('it does not start with {');
        this.place = 'key-or-end';
        return i + 1;
      case 'key-or-end':
        if (b === 0x7d) this.place = 'done';
        else if (b === QUOTE) this.place = 'key';
        else this.fail('a key was expected');
        return i + 1;
      case 'colon':
        if (b !== 0x3a) this.fail('a colon was expected');
        this.place = 'value';
        return i + 1;
      case 'value':
        if (b === 0x5b && this.options.listed.has(this.key)) {
          this.inArray = true;
          this.index = 0;
          this.place = 'items';
          return i + 1;
        }
        this.inArray = false;
        this.startValue(chunk, i);
        return i;
      case 'items':
        if (b === 0x5d) return this.endArray(i);
        this.startValue(chunk, i);
        return i;
      case 'after-item':
        if (b === 0x5d) return this.endArray(i);
        if (b !== 0x2c) this.fail('a comma was expected between items');
        this.place = 'items';
        return i + 1;
      case 'after-field':
        if (b === 0x7d) this.place = 'done';
        else if (b === 0x2c) this.place = 'key-or-end';
        else this.fail('a comma was expected between fields');
        return i + 1;
      default:
        return this.fail('text after its end');
    }
  }

  endArray(i: number): number {
    this.inArray = false;
    this.place = 'after-field';
    return i + 1;
  }
}

/**
 * Yields a session file's top-level fields, and the items of its listed arrays one by one, in the file's order,
 * from its bytes: memory is bounded by the largest item, not by the file.
 *
 * @param chunks The file's bytes (e.g. a read stream, decompressed).
 * @param options Which arrays to read item by item, which fields not to parse.
 * @throws When the text is not a JSON object (a truncated file ends without its closing brace).
 * @example
 * ```ts
 * const listed = new Set(['entries']);
 * for await (const item of sessionItems(createReadStream(file), { listed }))
 *   if (item.field === 'entries') render(item.value as Entry);
 * ```
 */
export async function* sessionItems(
  chunks: AsyncIterable<Uint8Array>,
  options: SessionItemsOptions,
): AsyncGenerator<SessionItem> {
  const reader = new ItemReader(options);
  for await (const chunk of chunks) {
    reader.read(chunk);
    yield* reader.out;
    reader.out.length = 0;
  }
  if (reader.place !== 'done') reader.fail('it ends before its closing brace');
}
