/**
 * The WebAssembly module of `keyword-lanes.ts`, written out as bytes: one function, `lanes`, that steps four lanes
 * of a text through an automaton's table together, and the memory it reads. It is small enough to be assembled
 * here, opcode by opcode, rather than shipped as a binary built by another toolchain.
 */

// Instructions and types of the WebAssembly binary format (https://webassembly.github.io/spec/core/binary/).
const I32 = 0x7f;
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load: 0x28,
  load8u: 0x2d,
  load16u: 0x2f,
  store: 0x36,
  const: 0x41,
  ltS: 0x48,
  geU: 0x4f,
  add: 0x6a,
  mul: 0x6c,
  xor: 0x73,
  empty: 0x40,
} as const;

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

const vector = (items: readonly number[][]): number[] => [...unsigned(items.length), ...items.flat()];
const section = (id: number, bytes: readonly number[]): number[] => [id, ...unsigned(bytes.length), ...bytes];
const name = (text: string): number[] => vector([...text].map((c) => [c.charCodeAt(0)]));
const get = (local: number) => [OP.get, ...unsigned(local)];
const set = (local: number) => [OP.set, ...unsigned(local)];
const constant = (value: number) => [OP.const, ...signed(value)];
// A memory access: alignment (as a power of two) and a constant offset added to the address.
const memarg = (align: number, offset: number) => [align, ...unsigned(offset)];

/** The lanes: as many as `keyword-lanes.ts` splits a window into. */
export const LANE_COUNT = 4;

// The function's parameters, then its locals.
const FIRST = 0; // where lane 0's next code unit is (lane k's is `stride` × k further)
const STRIDE = 1;
const STEPS = 2;
const HEADS = 3; // each lane's end state, then where its hits end
const CAPACITY = 4; // bytes of hits a lane has room for
const PARAMS = 5;
const STATE = PARAMS; // a lane's state: its offset in the table, in bytes
const ENTRY = STATE + LANE_COUNT;
const END = ENTRY + 1;
const OUT = END + 1; // where a lane's next hit goes
const FROM = OUT + LANE_COUNT; // a lane's distance from lane 0, in bytes
const LOCALS = FROM + LANE_COUNT - PARAMS;

/** One step of a lane: its next state, and its hit (where, and the state) when keywords end there. */
function step(lane: number, table: number): number[] {
  const address = lane === 0 ? get(FIRST) : [...get(FIRST), ...get(FROM + lane), OP.add];
  return [
    // The class (× 4) of the code unit, added to the state's offset, reads the next entry.
    ...address,
    OP.load16u,
    ...memarg(1, 0),
    OP.load8u,
    ...memarg(0, 0),
    ...get(STATE + lane),
    OP.add,
    OP.load,
    ...memarg(2, table),
    OP.tee,
    ...unsigned(ENTRY),
    ...constant(0),
    OP.ltS,
    OP.if,
    OP.empty,
    ...get(ENTRY),
    ...constant(-1),
    OP.xor,
    ...set(STATE + lane),
    ...get(OUT + lane),
    ...address,
    OP.store,
    ...memarg(2, 0),
    ...get(OUT + lane),
    ...get(STATE + lane),
    OP.store,
    ...memarg(2, 4),
    ...get(OUT + lane),
    ...constant(8),
    OP.add,
    ...set(OUT + lane),
    OP.else,
    ...get(ENTRY),
    ...set(STATE + lane),
    OP.end,
  ];
}

/**
 * The module's bytes.
 *
 * @param pages The memory's size, in pages of 64 KiB.
 * @param table Where the table of next offsets starts in memory (the classes, × 4, are at 0).
 */
export function laneModule(pages: number, table: number): Uint8Array {
  const lanes = Array.from({ length: LANE_COUNT }, (_, lane) => lane);
  const body = [
    // Each lane's distance from lane 0, where its hits go, and where lane 0 ends.
    ...lanes.flatMap((lane) => [...get(STRIDE), ...constant(lane), OP.mul, ...set(FROM + lane)]),
    ...lanes.flatMap((lane) => [
      ...get(HEADS),
      ...constant(8 * LANE_COUNT),
      OP.add,
      ...get(CAPACITY),
      ...constant(lane),
      OP.mul,
      OP.add,
      ...set(OUT + lane),
    ]),
    ...get(FIRST),
    ...get(STEPS),
    ...get(STEPS),
    OP.add,
    OP.add,
    ...set(END),
    OP.block,
    OP.empty,
    OP.loop,
    OP.empty,
    ...get(FIRST),
    ...get(END),
    OP.geU,
    OP.brIf,
    1,
    ...lanes.flatMap((lane) => step(lane, table)),
    ...get(FIRST),
    ...constant(2),
    OP.add,
    ...set(FIRST),
    OP.br,
    0,
    OP.end,
    OP.end,
    ...lanes.flatMap((lane) => [...get(HEADS), ...get(STATE + lane), OP.store, ...memarg(2, 4 * lane)]),
    ...lanes.flatMap((lane) => [
      ...get(HEADS),
      ...get(OUT + lane),
      OP.store,
      ...memarg(2, 4 * (LANE_COUNT + lane)),
    ]),
    OP.end,
  ];
  const code = [...vector([[...unsigned(LOCALS), I32]]), ...body];
  const params = Array.from({ length: PARAMS }, () => [I32]);
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector(params), ...vector([])]])),
    ...section(3, vector([[0]])),
    ...section(5, vector([[0x00, ...unsigned(pages)]])),
    ...section(
      7,
      vector([
        [...name('lanes'), 0x00, 0],
        [...name('memory'), 0x02, 0],
      ]),
    ),
    ...section(10, vector([[...unsigned(code.length), ...code]])),
  ]);
}
