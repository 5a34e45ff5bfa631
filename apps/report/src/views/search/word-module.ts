/**
 * The WebAssembly module of `word-scan.ts`, written out as bytes: one function, `words`, that reads a text of ASCII
 * bytes sixteen at a time and writes, for each word (a run of ASCII letters and digits) of at most a given length,
 * a record: its key (`wordKey`: its first sixteen bytes, lowered), where it starts and ends, and its hash. It is small
 * enough to be assembled here, instruction by instruction, rather than shipped as a binary built by another
 * toolchain (the technique of the CLI's `privacy/lane-module.ts`).
 *
 * Sixteen bytes are told letters and digits or not by vector instructions, and the places where a word starts or
 * ends are read off the mask of the sixteen, one at a time: a text is read without a branch per character (a loop
 * over characters mispredicts its branch at the end of each word, most of its time on prose and code).
 */

// Instructions and types of the WebAssembly binary format (https://webassembly.github.io/spec/core/binary/).
const I32 = 0x7f;
const I64 = 0x7e;
const V128 = 0x7b;
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  select: 0x1b,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load64: 0x29,
  store: 0x36,
  store64: 0x37,
  const: 0x41,
  const64: 0x42,
  eqz: 0x45,
  ltU: 0x49,
  gtU: 0x4b,
  geU: 0x4f,
  ctz: 0x68,
  add: 0x6a,
  sub: 0x6b,
  mul: 0x6c,
  divU: 0x6e,
  and: 0x71,
  or: 0x72,
  xor: 0x73,
  shl: 0x74,
  shrU: 0x76,
  sub64: 0x7d,
  and64: 0x83,
  or64: 0x84,
  shl64: 0x86,
  shrU64: 0x88,
  wrap: 0xa7,
  extendU: 0xad,
  empty: 0x40,
  // Vector instructions: the prefix, then the instruction's number.
  simd: 0xfd,
  load128: 0x00,
  splat8: 0x0f,
  ltU8: 0x26,
  or128: 0x50,
  bitmask8: 0x64,
  sub8: 0x71,
} as const;

/** Bytes of a word's record: its key (two i64), where it starts and ends in the text, its hash (i32), and 4 spare. */
const RECORD = 32;
/** The multiplier of a word's hash (`wordHash`). */
export const HASH_STEP = -1_640_531_535; // 0x9e3779b1, as a 32-bit signed integer

/** An unsigned LEB128 number. */
function unsigned(value: number): number[] {
  const out: number[] = [];
  let n = value >>> 0;
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? byte : byte | 0x80);
  } while (n !== 0);
  return out;
}

/** A signed LEB128 number (of 64 bits at most). */
function signed(value: bigint): number[] {
  const out: number[] = [];
  let n = value;
  for (;;) {
    const byte = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && (byte & 0x40) === 0) || (n === -1n && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const vector = (items: readonly number[][]): number[] => [...unsigned(items.length), ...items.flat()];
const section = (id: number, bytes: readonly number[]): number[] => [id, ...unsigned(bytes.length), ...bytes];
const name = (text: string): number[] => vector([...text].map((c) => [c.charCodeAt(0)]));
const get = (local: number) => [OP.get, ...unsigned(local)];
const set = (local: number) => [OP.set, ...unsigned(local)];
const tee = (local: number) => [OP.tee, ...unsigned(local)];
const constant = (value: number) => [OP.const, ...signed(BigInt(value | 0))];
const constant64 = (value: bigint) => [OP.const64, ...signed(BigInt.asIntN(64, value))];
const simd = (op: number) => [OP.simd, ...unsigned(op)];
/** Sixteen bytes of the value `byte`. */
const splat = (byte: number) => [...constant(byte), ...simd(OP.splat8)];
// A memory access: alignment (as a power of two) and a constant offset added to the address.
const memarg = (align: number, offset: number) => [align, ...unsigned(offset)];

// The function's parameters: where the bytes read are, how many, the longest word written, where records go, and
// where the places it writes are counted from.
const TEXT = 0;
const LENGTH = 1;
const LONGEST = 2;
const OUT = 3;
const BASE = 4; // where the records' places are counted from
// Its locals: i32, then i64, then v128.
const AT = 5; // the sixteen bytes being read
const END = 6;
const START = 7; // where the word being read starts
const WRITE = 8; // where the next record goes
const BITS = 9; // the places left where a word starts or ends
const IN = 10; // 1 inside a word
const POS = 11;
const LEN = 12;
const HASH = 13;
const REST = 14;
const KEY0 = 15;
const KEY1 = 16;
const BYTES = 17;

/** Instructions and their parts, flattened. */
const code = (...parts: (number | number[])[]): number[] => parts.flat();

/** `(1 << (8 × bytes)) − 1` (i64) for `bytes` (i32, on the stack) below 8: the mask of a key's first bytes. */
const maskOf = (bytes: number[]) =>
  code(constant64(1n), bytes, constant(3), OP.shl, OP.extendU, OP.shl64, constant64(1n), OP.sub64);

/** The word's key's half at byte `from` (0 or 8): its bytes lowered (`| 0x20`: letters and digits only), masked. */
function keyHalf(from: number): number[] {
  const lowered = code(get(START), OP.load64, memarg(0, from), constant64(0x2020202020202020n), OP.or64);
  // All its bytes when the word is long enough, none when it ends before `from`, its first ones otherwise.
  const all = code(constant64(-1n), maskOf(code(get(LEN), constant(from), OP.sub)));
  const mask =
    from === 0
      ? code(all, get(LEN), constant(8), OP.geU, OP.select)
      : code(
          all,
          get(LEN),
          constant(16),
          OP.geU,
          OP.select,
          constant64(0n),
          get(LEN),
          constant(8),
          OP.gtU,
          OP.select,
        );
  return code(lowered, mask, OP.and64);
}

/** `hash = imul(hash ^ part, HASH_STEP)` for the 32-bit part of a key's half (`high`: its upper part). */
const mix = (key: number, high: boolean) =>
  code(get(key), high ? code(constant64(32n), OP.shrU64) : [], OP.wrap, OP.xor, constant(HASH_STEP), OP.mul);

/** Writes the record of the word from `START` to `POS` when it is 1 to `LONGEST` bytes long. */
function record(): number[] {
  return [
    ...code(
      get(POS),
      get(START),
      OP.sub,
      tee(LEN),
      constant(1),
      OP.sub,
      get(LONGEST),
      OP.ltU,
      OP.if,
      OP.empty,
    ),
    ...code(keyHalf(0), set(KEY0), keyHalf(8), set(KEY1)),
    // Its hash (`wordKey`): the length, then the key's four 32-bit parts, low first.
    ...code(get(LEN), mix(KEY0, false), mix(KEY0, true), mix(KEY1, false), mix(KEY1, true)),
    ...code(tee(HASH), get(HASH), constant(16), OP.shrU, OP.xor, set(HASH)),
    ...code(get(WRITE), get(KEY0), OP.store64, memarg(3, 0), get(WRITE), get(KEY1), OP.store64, memarg(3, 8)),
    ...code(get(WRITE), get(START), get(BASE), OP.sub, OP.store, memarg(2, 16)),
    ...code(get(WRITE), get(POS), get(BASE), OP.sub, OP.store, memarg(2, 20)),
    ...code(get(WRITE), get(HASH), OP.store, memarg(2, 24)),
    ...code(get(WRITE), constant(RECORD), OP.add, set(WRITE), OP.end),
  ];
}

/**
 * `words(text, length, longest, out, base)`: writes the records of the words of the `length` bytes at `text` from
 * `out` (where they start and end counted from `base`); returns how many it wrote. It reads up to 15 bytes past
 * their end (and a word's key up to 16 past its start), which it leaves out.
 */
function body(): number[] {
  return [
    ...code(get(TEXT), set(AT), get(TEXT), get(LENGTH), OP.add, set(END), get(OUT), set(WRITE)),
    ...code(OP.block, OP.empty, OP.loop, OP.empty, get(AT), get(END), OP.geU, OP.brIf, 1),
    // Which of the sixteen bytes are letters (lowered: a–z) or digits.
    ...code(get(AT), simd(OP.load128), memarg(0, 0), tee(BYTES), splat(0x20), simd(OP.or128)),
    ...code(splat(0x61), simd(OP.sub8), splat(26), simd(OP.ltU8)),
    ...code(get(BYTES), splat(0x30), simd(OP.sub8), splat(10), simd(OP.ltU8)),
    ...code(simd(OP.or128), simd(OP.bitmask8)),
    // None past the text's end.
    ...code(constant(1), get(END), get(AT), OP.sub, tee(REST), OP.shl, constant(1), OP.sub),
    ...code(constant(0xffff), get(REST), constant(16), OP.ltU, OP.select, OP.and),
    // The places where a byte is in a word and the one before it is not, or the other way round.
    ...code(
      tee(BITS),
      constant(1),
      OP.shl,
      get(IN),
      OP.or,
      get(BITS),
      OP.xor,
      constant(0xffff),
      OP.and,
      set(BITS),
    ),
    // Each place in turn: a word's start, or its end.
    ...code(OP.block, OP.empty, OP.loop, OP.empty, get(BITS), OP.eqz, OP.brIf, 1),
    ...code(get(AT), get(BITS), OP.ctz, OP.add, set(POS)),
    ...code(get(BITS), get(BITS), constant(1), OP.sub, OP.and, set(BITS)),
    ...code(get(IN), OP.if, OP.empty, record(), OP.else, get(POS), set(START), OP.end),
    ...code(get(IN), constant(1), OP.xor, set(IN), OP.br, 0, OP.end, OP.end),
    ...code(get(AT), constant(16), OP.add, set(AT), OP.br, 0, OP.end, OP.end),
    // A word that goes on to the text's end.
    ...code(get(IN), OP.if, OP.empty, get(END), set(POS), record(), OP.end),
    ...code(get(WRITE), get(OUT), OP.sub, constant(RECORD), OP.divU, OP.end),
  ];
}

/** The module's bytes: `words` and its memory (exported as `memory`), of `pages` pages of 64 KiB to start with. */
export function wordModule(pages: number): Uint8Array {
  const code = [
    ...vector([
      [...unsigned(KEY0 - AT), I32],
      [2, I64],
      [1, V128],
    ]),
    ...body(),
  ];
  const params = Array.from({ length: BASE + 1 }, () => [I32]);
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector(params), ...vector([[I32]])]])),
    ...section(3, vector([[0]])),
    ...section(5, vector([[0x00, ...unsigned(pages)]])),
    ...section(
      7,
      vector([
        [...name('words'), 0x00, 0],
        [...name('memory'), 0x02, 0],
      ]),
    ),
    ...section(10, vector([[...unsigned(code.length), ...code]])),
  ]);
}
