/**
 * The pieces of WebAssembly's binary format (https://webassembly.github.io/spec/core/binary/) that the string
 * scan's module (`string-scan-module.ts`) is written with: numbers, sections, instructions.
 */

/** Value types. */
export const I32 = 0x7f;
export const V128 = 0x7b;
/** The type of a block, loop or `if` that leaves nothing on the stack. */
export const EMPTY = 0x40;
/** Instructions. */
export const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load8u: 0x2d,
  store: 0x36,
  const: 0x41,
  eqz: 0x45,
  eq: 0x46,
  ne: 0x47,
  ltU: 0x49,
  geU: 0x4f,
  ctz: 0x68,
  add: 0x6a,
  sub: 0x6b,
  shl: 0x74,
  and: 0x71,
  or: 0x72,
  xor: 0x73,
} as const;
/** SIMD instructions (see `simd`). */
export const SIMD = {
  load: 0x00,
  swizzle: 0x0e,
  splat: 0x0f,
  eq: 0x23,
  ltU: 0x26,
  and: 0x4e,
  andNot: 0x4f,
  or: 0x50,
  anyTrue: 0x53,
  bitmask: 0x64,
  shrU: 0x6d,
} as const;

/** An unsigned LEB128 number. */
export function unsigned(value: number): number[] {
  const out: number[] = [];
  let n = value >>> 0;
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? byte : byte | 0x80);
  } while (n !== 0);
  return out;
}

/** A signed LEB128 number. */
function signed(value: number): number[] {
  const out: number[] = [];
  let n = value | 0;
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** A vector: its length, then its items. */
export const vector = (items: readonly number[][]): number[] => [...unsigned(items.length), ...items.flat()];
/** A section of a module. */
export const section = (id: number, bytes: readonly number[]): number[] => [
  id,
  ...unsigned(bytes.length),
  ...bytes,
];
/** A name (ASCII). */
export const name = (text: string): number[] => vector([...text].map((c) => [c.charCodeAt(0)]));
/** `local.get`. */
export const get = (local: number) => [OP.get, ...unsigned(local)];
/** `local.set`. */
export const set = (local: number) => [OP.set, ...unsigned(local)];
/** `local.tee`. */
export const tee = (local: number) => [OP.tee, ...unsigned(local)];
/** `i32.const`. */
export const constant = (value: number) => [OP.const, ...signed(value)];
/** A SIMD instruction: the prefix 0xfd, then its number. */
export const simd = (op: number) => [0xfd, ...unsigned(op)];
