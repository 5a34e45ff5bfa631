/**
 * The WebAssembly module of `string-spans.ts`, written out as bytes (the binary format,
 * https://webassembly.github.io/spec/core/binary/), like the redaction's lanes in the CLI. One function,
 * `strings(at, end, out, capacity)`, finds the JSON strings of the bytes `[at, end)` of its memory and checks each as
 * `JSON.parse` would (no control character; every escape one of `\" \\ \/ \b \f \n \r \t \uXXXX`): it writes the
 * offsets of each string's quotes, as two 32-bit numbers, at `out`, and returns how many strings it wrote (at most
 * `capacity`: the caller asks again from after the last one), or -1 when a string is not valid or not closed.
 * Sixteen bytes are compared at once (SIMD); only the bytes that stop the scan are looked at one by one.
 */
import {
  constant,
  EMPTY,
  get,
  I32,
  name,
  OP,
  SIMD,
  section,
  set,
  simd,
  tee,
  unsigned,
  V128,
  vector,
} from './wasm-binary.js';

/** A byte at `offset` past the address on the stack, then used as an index into the table at `table`. */
const lookUp = (offset: number, table: number) => [OP.load8u, 0, offset, OP.load8u, 0, ...unsigned(table)];

/** Where the table of escapes is: the length of the escape a letter after a backslash makes, 0 if none. */
export const ESCAPES = 0;
/** Where the table of hexadecimal digits is: 1 for a digit. */
export const HEX = 256;
/**
 * Where the two tables of simple escapes' letters are (`"\\/bfnrt`, by the low and the high half of a byte): a
 * letter is one when the entries of its halves share a bit.
 */
export const LETTERS_LOW = 512;
export const LETTERS_HIGH = 528;
/** Where a line's bytes go. */
export const LINE = 1024;
/** Bytes read past a line's end at most (four vectors, or the four digits of a `\u` escape), kept in memory. */
export const PAST_END = 80;

// Parameters and locals of `strings`.
const AT = 0;
const END = 1;
const OUT = 2;
const CAPACITY = 3;
const MASK = 4;
const BYTE = 5;
const STEP = 6;
const BASE = 7;
const BACKSLASHES = 8;
const ESCAPED = 9;
const COUNT = 10;
const OPEN = 11;
const CONTROL = 12;
const BACKSLASH = 13;
const QUOTE = 14;
const VECTOR = 15;
const NIBBLE = 16;
const LOW = 17;
const HIGH = 18;
const ZERO = 19;
const BAD = 20;
const ESCAPES_HERE = 21;
const PREVIOUS = 22;
const LETTER_N = 23;

/** Instructions, given as statements (each a list of bytes). */
const code = (...statements: readonly number[][]): number[] => statements.flat();
/** `local += step`. */
const advance = (local: number, step: number) => [...get(local), ...constant(step), OP.add, ...set(local)];
/** A vector of the sixteen bytes at the address on the stack. */
const load = [...simd(SIMD.load), 0, 0];

/** The constant vectors, in locals. */
function setUp(): number[] {
  const splat = (byte: number, local: number) => [...constant(byte), ...simd(SIMD.splat), ...set(local)];
  const table = (at: number, local: number) => [
    ...constant(0),
    ...simd(SIMD.load),
    0,
    ...unsigned(at),
    ...set(local),
  ];
  return code(
    splat(0x20, CONTROL),
    splat(0x5c, BACKSLASH),
    splat(0x22, QUOTE),
    splat(0x0f, NIBBLE),
    splat(0, ZERO),
    splat(0x6e, LETTER_N),
    table(LETTERS_LOW, LOW),
    table(LETTERS_HIGH, HIGH),
  );
}

/** `AT` moves to the next quote; with none before `END`, the function returns the count. */
function nextQuote(): number[] {
  const doneIfPastEnd = [...get(AT), ...get(END), OP.geU, OP.if, EMPTY, ...get(COUNT), OP.return, OP.end];
  return code(
    [OP.loop, EMPTY], // $find
    doneIfPastEnd,
    [...get(AT), ...load, ...get(QUOTE), ...simd(SIMD.eq), ...simd(SIMD.bitmask), ...tee(MASK)],
    [OP.eqz, OP.if, EMPTY, ...advance(AT, 16), OP.br, 1, OP.end], // on to $find
    [OP.end],
    [...get(AT), ...get(MASK), OP.ctz, OP.add, ...set(AT)],
    doneIfPastEnd,
  );
}

/**
 * Inside a string (`AT` after its opening quote, at `OPEN`): to its closing quote, the string's quotes written
 * out, then on to the next string (`$string`).
 */
function toStringEnd(): number[] {
  // Depths from inside $stop: 0 $stop, 1 $vector, 2 $string, 3 $fail.
  const failIf = (depth: number) => [OP.brIf, depth];
  const hex = (offset: number) => [...get(AT), ...lookUp(offset, HEX)];
  return code(
    [OP.loop, EMPTY], // $vector: the sixteen bytes from `AT`
    [...get(AT), ...get(END), OP.geU, ...failIf(2)],
    cleanBlock(),
    [...get(AT), ...load, ...tee(VECTOR), ...get(CONTROL), ...simd(SIMD.ltU)],
    [...get(VECTOR), ...get(BACKSLASH), ...simd(SIMD.eq), ...simd(SIMD.or)],
    [...get(VECTOR), ...get(QUOTE), ...simd(SIMD.eq), ...simd(SIMD.or), ...simd(SIMD.bitmask), ...tee(MASK)],
    [OP.eqz, OP.if, EMPTY, ...advance(AT, 16), OP.br, 1, OP.end], // no stop: on to $vector
    fastPath(),
    [...get(AT), ...set(BASE)],
    [OP.loop, EMPTY], // $stop: the next byte of the vector that stops the scan (a bit of the mask)
    [...get(BASE), ...get(MASK), OP.ctz, OP.add, ...tee(AT), ...get(END), OP.geU, ...failIf(3)],
    [...get(AT), OP.load8u, 0, 0, ...tee(BYTE), ...constant(0x22), OP.eq],
    [OP.if, EMPTY, ...writeString(), OP.br, 3, OP.end], // the closing quote: on to $string
    [...get(BYTE), ...constant(0x5c), OP.ne, ...failIf(3)], // a control character
    // An escape: the letter after the backslash gives its length; `\u` needs four hexadecimal digits.
    [...get(AT), ...lookUp(1, ESCAPES), ...tee(STEP), OP.eqz, ...failIf(3)],
    [...get(STEP), ...constant(6), OP.eq, OP.if, EMPTY],
    [...hex(2), ...hex(3), OP.and, ...hex(4), OP.and, ...hex(5), OP.and, OP.eqz, ...failIf(4), OP.end],
    // After the escape: the vector's next stop, or the next vector from there.
    [...get(AT), ...get(STEP), OP.add, ...tee(AT), ...get(BASE), OP.sub, ...tee(STEP)],
    [...constant(16), OP.geU, OP.brIf, 1], // $vector
    [...get(MASK), ...constant(-1), ...get(STEP), OP.shl, OP.and, ...tee(MASK), OP.brIf, 0], // $stop
    [...get(BASE), ...constant(16), OP.add, ...set(AT), OP.br, 1], // $vector
    [OP.end, OP.end],
  );
}

/** The string's quotes (`OPEN`, `AT`) written out; at `CAPACITY` strings, the function returns. */
function writeString(): number[] {
  return code(
    [...get(OUT), ...get(COUNT), ...constant(3), OP.shl, OP.add, ...tee(STEP)],
    [...get(OPEN), OP.store, 2, 0, ...get(STEP), ...get(AT), OP.store, 2, 4],
    advance(AT, 1),
    advance(COUNT, 1),
    [...get(COUNT), ...get(CAPACITY), OP.eq, OP.if, EMPTY, ...get(COUNT), OP.return, OP.end],
  );
}

/** The function's body. */
function stringsBody(): number[] {
  return code(
    setUp(),
    [OP.block, EMPTY], // $fail
    [OP.loop, EMPTY], // $string
    nextQuote(),
    [...get(AT), ...tee(OPEN), ...constant(1), OP.add, ...set(AT)],
    toStringEnd(),
    [OP.end, OP.end],
    constant(-1),
  );
}

/**
 * Skips the vector at once when its only stops are lone backslashes (none the last byte) each before the letter
 * of a simple escape (`\\n`, `\\"`, …): the common case of text, whose line ends are `\\n`.
 */
function fastPath(): number[] {
  return code(
    [...get(VECTOR), ...get(BACKSLASH), ...simd(SIMD.eq), ...simd(SIMD.bitmask), ...tee(BACKSLASHES)],
    [...constant(1), OP.shl, ...set(ESCAPED)],
    // Escaped bytes that are not a simple escape's letter.
    [...get(LOW), ...get(VECTOR), ...get(NIBBLE), ...simd(SIMD.and), ...simd(SIMD.swizzle)],
    [...get(HIGH), ...get(VECTOR), ...constant(4), ...simd(SIMD.shrU), ...simd(SIMD.swizzle)],
    [...simd(SIMD.and), ...get(ZERO), ...simd(SIMD.eq), ...simd(SIMD.bitmask), ...get(ESCAPED), OP.and],
    // Stops that are neither a backslash nor an escaped byte: quotes, control characters.
    [...get(MASK), ...get(BACKSLASHES), ...get(ESCAPED), OP.or, ...constant(-1), OP.xor, OP.and, OP.or],
    // Two backslashes in a row, or one at the last byte.
    [...get(BACKSLASHES), ...get(ESCAPED), OP.and, OP.or],
    [...get(BACKSLASHES), ...constant(0x8000), OP.and, OP.or],
    [OP.eqz, OP.if, EMPTY, ...advance(AT, 16), OP.br, 1, OP.end], // on to $vector
  );
}

/**
 * Bytes of the vector at `AT + 16 × k` that keep the block from being skipped at once, or-ed into `BAD`: quotes
 * and control characters not escaped, escaped bytes other than `n` and `"` (the escapes of text: other escapes are
 * checked sixteen bytes at a time), two backslashes in a row.
 * Each byte's escape is read from the byte before it (the vector loaded one byte earlier, from `PREVIOUS`).
 */
function blockBytes(k: number): number[] {
  const at = unsigned(16 * k);
  return code(
    [...get(AT), ...simd(SIMD.load), 0, ...at, ...tee(VECTOR), ...get(CONTROL), ...simd(SIMD.ltU)],
    [...get(VECTOR), ...get(QUOTE), ...simd(SIMD.eq), ...simd(SIMD.or)],
    [
      ...get(PREVIOUS),
      ...simd(SIMD.load),
      0,
      ...at,
      ...get(BACKSLASH),
      ...simd(SIMD.eq),
      ...tee(ESCAPES_HERE),
    ],
    simd(SIMD.andNot),
    [...get(ESCAPES_HERE), ...get(VECTOR), ...get(LETTER_N), ...simd(SIMD.eq), ...get(VECTOR), ...get(QUOTE)],
    [...simd(SIMD.eq), ...simd(SIMD.or), ...simd(SIMD.andNot), ...simd(SIMD.or)],
    [
      ...get(VECTOR),
      ...get(BACKSLASH),
      ...simd(SIMD.eq),
      ...get(ESCAPES_HERE),
      ...simd(SIMD.and),
      ...simd(SIMD.or),
    ],
    [...get(BAD), ...simd(SIMD.or), ...set(BAD)],
  );
}

/**
 * Skips the 64 bytes from `AT` at once when their only stops are lone backslashes before `n` or `"`: long text,
 * whose line ends are `\\n`, is read this way, with one branch a block. Not where the byte
 * before `AT` is a backslash (it ended an escaped backslash) nor where the block's last byte is one.
 */
function cleanBlock(): number[] {
  const backslash = [...constant(0x5c), OP.ne];
  return code(
    [...get(AT), ...constant(1), OP.sub, ...tee(PREVIOUS), OP.load8u, 0, 0, ...backslash],
    [...get(AT), OP.load8u, 0, 63, ...backslash, OP.and, OP.if, EMPTY],
    [...get(ZERO), ...set(BAD)],
    blockBytes(0),
    blockBytes(1),
    blockBytes(2),
    blockBytes(3),
    [...get(BAD), ...simd(SIMD.anyTrue), OP.eqz, OP.if, EMPTY, ...advance(AT, 64), OP.br, 2, OP.end], // $vector
    [OP.end],
  );
}

/**
 * The module's bytes.
 *
 * @param pages The memory's first size, in pages of 64 KiB (it can grow).
 */
export function stringScanModule(pages: number): Uint8Array {
  const locals = vector([
    [...unsigned(8), I32],
    [...unsigned(10), V128],
    [...unsigned(1), I32],
    [...unsigned(1), V128],
  ]);
  const code = [...locals, ...stringsBody(), OP.end];
  const params = [[I32], [I32], [I32], [I32]];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector(params), ...vector([[I32]])]])),
    ...section(3, vector([[0]])),
    ...section(5, vector([[0x00, ...unsigned(pages)]])),
    ...section(
      7,
      vector([
        [...name('strings'), 0x00, 0],
        [...name('memory'), 0x02, 0],
      ]),
    ),
    ...section(10, vector([[...unsigned(code.length), ...code]])),
  ]);
}
