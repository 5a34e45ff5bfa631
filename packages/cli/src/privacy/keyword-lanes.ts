/**
 * The keyword automaton's steps over a long text in WebAssembly, four lanes at once. Each step of a reading waits
 * for the table entry of the step before it; four lanes over four parts of a text do not wait for each other, and
 * WebAssembly reads the text and the tables without the checks a JavaScript loop makes per character. The text is
 * copied into the module's memory a window at a time (a copy the runtime makes at memory speed). Each lane starts
 * the longest keyword's length before its part, as the halves of `keyword-scan.ts` do, and reports only the
 * keywords ending in its part: hits, and their order, are those of a reading from the start.
 */

import { LANE_COUNT, laneModule } from './lane-module.js';

/** The tables of an automaton, as `keyword-scan.ts` compiles them. */
export interface LaneTables {
  /** The class of each UTF-16 code unit (65,536 entries; 0: in no keyword). */
  classes: Uint8Array;
  /** For each state's offset plus a class, the next state's offset (state × width), negated (`~`) when keywords end there. */
  next: Int32Array;
  /** How many classes there are. */
  width: number;
  /** The longest keyword's length. */
  overlap: number;
}

/** Writes the keywords that end at `i`, where the automaton is at `offset`, into `hits` from `written`; returns where to go on. */
export type WriteHits = (text: string, i: number, offset: number, hits: number[], written: number) => number;

const LANES = LANE_COUNT;
// Characters one window reports (its lanes read the longest keyword's length more).
const WINDOW = 1 << 15;
// The module's memory: the classes (× 4, a byte each) at 0, the table of next offsets (in bytes) at `TABLE`, then
// the window's text, then each lane's end state and where its hits end, then the lanes' hits (position, state).
const TABLE = 1 << 16;
const PAGE = 1 << 16;

/** What this module uses of the WebAssembly API (which the package's TypeScript libraries do not declare). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
type Kernel = (first: number, stride: number, steps: number, heads: number, capacity: number) => void;

/**
 * A scan of long texts by lanes over an automaton's tables, or null where WebAssembly cannot run it.
 *
 * @param write Writes the keywords ending where the automaton reports a state with keywords.
 * @returns The scan: it writes the hits of a text (see `KeywordScan.scan`) and returns how many pairs it wrote.
 */
export function laneScanner(
  { classes, next, width, overlap }: LaneTables,
  write: WriteHits,
): ((text: string, hits: number[]) => number) | null {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  // A class × 4 is read as one byte.
  if (api === undefined || 4 * (width - 1) > 0xff) return null;
  const text16 = (TABLE + 4 * next.length + 15) & ~15;
  const heads = (text16 + 2 * (WINDOW + overlap) + 15) & ~15;
  const records = heads + 8 * LANES;
  // A lane reads a quarter of a window and the overlap: at most one hit a character.
  const capacity = 8 * (Math.ceil(WINDOW / LANES) + overlap + 1);
  const pages = Math.ceil((records + LANES * capacity) / PAGE);
  let kernel: Kernel;
  let memory: ArrayBuffer;
  try {
    const { exports } = new api.Instance(new api.Module(laneModule(pages, TABLE)));
    kernel = exports.lanes as Kernel;
    memory = (exports.memory as { buffer: ArrayBuffer }).buffer;
  } catch {
    return null;
  }
  // The memory never grows, so these views of it stay valid.
  const bytes = new Uint8Array(memory);
  const words = new Int32Array(memory);
  const buffer = Buffer.from(memory);
  for (let code = 0; code < classes.length; code++) bytes[code] = 4 * classes[code]!;
  for (let i = 0; i < next.length; i++) {
    const to = next[i]!;
    words[(TABLE >> 2) + i] = to >= 0 ? 4 * to : ~(4 * ~to);
  }
  return (text: string, hits: number[]): number => {
    let written = 0;
    const length = text.length;
    for (let start = 0; start < length; start += WINDOW) {
      const end = Math.min(length, start + WINDOW);
      // The window's text from the overlap before it; before the text's start, code unit 0 (in no keyword).
      const before = start - overlap;
      if (before < 0) bytes.fill(0, text16, text16 - 2 * before);
      buffer.write(text.slice(Math.max(0, before), end), text16 + 2 * Math.max(0, -before), 'utf16le');
      const part = Math.floor((end - start) / LANES);
      let offset = 0;
      let from = Math.max(0, before);
      if (part > 0) {
        kernel(text16, 2 * part, part + overlap, heads, capacity);
        for (let lane = 0; lane < LANES; lane++) {
          const floor = start + lane * part;
          const last = words[(heads >> 2) + LANES + lane]!;
          for (let at = records + lane * capacity; at < last; at += 8) {
            const i = before + ((words[at >> 2]! - text16) >> 1);
            if (i >= floor) written = write(text, i, words[(at >> 2) + 1]! >> 2, hits, written);
          }
        }
        offset = words[(heads >> 2) + LANES - 1]! >> 2;
        from = start + LANES * part;
      }
      // The last few characters (fewer than the lanes) go on from the last lane's state.
      for (let i = from; i < end; i++) {
        const entry = next[offset + classes[text.charCodeAt(i)]!]!;
        if (entry >= 0) offset = entry;
        else {
          offset = ~entry;
          if (i >= start) written = write(text, i, offset, hits, written);
        }
      }
    }
    return written >> 1;
  };
}
