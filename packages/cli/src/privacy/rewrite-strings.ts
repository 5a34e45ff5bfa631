/**
 * Maps every string inside a JSON value to a new one, returning a new value and leaving the given one as it is.
 * Only what changed is copied: an object or array none of whose strings changed is returned itself (the same
 * object), so a value without secrets costs one visit of its strings and no allocation. The walk recurses as far
 * as `RECURSION_DEEPEST` levels (the shape of sessions) and walks what is deeper with an explicit stack, so deep
 * values cannot overflow. Base64 image payloads are skipped. Objects of one shape come again and again (entries,
 * their usage, their sources), holding the same keys in the same order and often the same values: what a map left
 * unchanged at each place of such an object is remembered (`Places`), so that a key or value seen there before is
 * known unchanged by one comparison, without the map's own look-up.
 */

/** How to map the strings of a value: a string returned unchanged (`===`) counts as no change. */
export interface StringMap {
  /** Maps a string value (an object's value, an array's item, or the value itself). */
  value: (text: string) => string;
  /** Maps an object key; keys are left alone without it. An object whose keys change keeps their order. */
  key?: (text: string) => string;
  /**
   * Where walks remember what the map left unchanged (`newPlaces`): maps that are the same function of a string
   * may share them, across walks. A map without its own has places made for it.
   */
  places?: Places;
}

/** One object or array being mapped: where the walk is in it, and its copy once something in it changed. */
interface Frame {
  source: Record<string, unknown> | unknown[];
  /** The keys of an object (null for an array). */
  keys: string[] | null;
  /** The mapped keys of an object, when one of them changed. */
  renamed: string[] | null;
  /** The index of the next key or item to visit. */
  next: number;
  /** Whether the object is an image (its `data` is a payload, not text). */
  image: boolean;
  copy: Record<string, unknown> | unknown[] | null;
  parent: Frame | null;
  /** Where the value goes in its parent's copy: an index, or the parent's mapped key. */
  slot: string | number;
}

// How deep the walk recurses; below that, an explicit stack (`mapDeep`).
const RECURSION_DEEPEST = 64;

// Places remembered: objects are told apart by a hash of their depth and first key into `SHAPES` kinds, their keys
// by their index (modulo `PLACES`). Two shapes of one hash share places, which each then remembers less often.
const SHAPES = 128;
const PLACES = 32;

/**
 * For each place of an object (a kind of object, a key's index in it), the key and the string value the map last
 * left unchanged there: a string found there again (`===`) is unchanged, without calling the map. A map is a pure
 * function of a string (what it collects, it collects for strings it changes), so this holds for any walk with
 * the same map, or with a map that is the same function.
 */
export interface Places {
  keys: (string | undefined)[];
  values: (string | undefined)[];
}

// Values longer than this are not remembered at a place (places kept across walks keep no long text alive).
const PLACED_LONGEST = 256;

/** Places where nothing is remembered yet. */
export function newPlaces(): Places {
  return { keys: new Array(SHAPES * PLACES), values: new Array(SHAPES * PLACES) };
}

const PLACES_OF = new WeakMap<StringMap, Places>();

function placesOf(map: StringMap): Places {
  if (map.places !== undefined) return map.places;
  let places = PLACES_OF.get(map);
  if (places === undefined) {
    places = newPlaces();
    PLACES_OF.set(map, places);
  }
  return places;
}

/** The first place of an object's kind: a hash of its depth and its first key (`Places`). */
function shapeOf(depth: number, first: string): number {
  const n = first.length;
  return (
    (((depth & 7) * 131 + n * 17 + first.charCodeAt(0) * 3 + first.charCodeAt(n - 1)) & (SHAPES - 1)) * PLACES
  );
}

/**
 * A value with every string mapped (see the module's comment).
 *
 * @param value Any JSON value: a string, an object or array (a session, an index), or anything else (returned).
 * @param map How strings (and keys) are mapped.
 * @returns The value mapped: the same value when no string changed, else a copy sharing what did not change.
 */
export function mapStrings<T>(value: T, map: StringMap): T {
  if (typeof value === 'string') return map.value(value) as T;
  if (value === null || typeof value !== 'object') return value;
  return mapObject(value, map, placesOf(map), 0) as T;
}

/** An object or array mapped by recursion, one level of it per call. */
function mapObject(source: object, map: StringMap, places: Places, depth: number): object {
  if (depth >= RECURSION_DEEPEST) return mapDeep(source, map);
  if (Array.isArray(source)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < source.length; i++) {
      const item: unknown = source[i];
      const mapped =
        typeof item === 'string'
          ? map.value(item)
          : item !== null && typeof item === 'object'
            ? mapObject(item, map, places, depth + 1)
            : item;
      if (mapped === item) continue;
      copy ??= source.slice();
      copy[i] = mapped;
    }
    return copy ?? source;
  }
  const record = source as Record<string, unknown>;
  // An object whose keys change: their order and collisions are the stack walk's (`frameOf`). `for … in` reads a
  // plain object's keys from its shape, without a list of them made per object (JSON objects inherit none).
  let shape = -1;
  if (map.key !== undefined) {
    const { keys } = places;
    let i = 0;
    for (const key in record) {
      if (shape < 0) shape = shapeOf(depth, key);
      const place = shape + (i & (PLACES - 1));
      if (keys[place] !== key) {
        const mapped = map.key(key);
        if (mapped !== key) return mapDeep(source, map, renamedFrom(Object.keys(record), map.key, i, mapped));
        keys[place] = key;
      }
      i++;
    }
  }
  const { values } = places;
  let copy: Record<string, unknown> | null = null;
  let i = 0;
  for (const key in record) {
    if (shape < 0) shape = shapeOf(depth, key);
    const place = shape + (i++ & (PLACES - 1));
    const item = record[key];
    let mapped: unknown;
    if (typeof item === 'string') {
      if (values[place] === item || (key === 'data' && isImage(record))) continue;
      mapped = map.value(item);
      if (mapped === item) {
        if (item.length <= PLACED_LONGEST) values[place] = item;
        continue;
      }
    } else if (item !== null && typeof item === 'object') mapped = mapObject(item, map, places, depth + 1);
    else continue;
    if (mapped === item) continue;
    copy ??= { ...record };
    define(copy, key, mapped);
  }
  return copy ?? source;
}

/**
 * An object or array mapped with an explicit stack: as deep as it is, keys renamed (see `mapStrings`).
 *
 * @param renamed The object's keys mapped already (each key is mapped once), when they were.
 */
function mapDeep<T extends object>(value: T, map: StringMap, renamed?: string[]): T {
  const root = frameOf(value, null, 0, map, renamed);
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { source, keys } = frame;
    const length = keys === null ? (source as unknown[]).length : keys.length;
    if (frame.next >= length) {
      stack.pop();
      if (frame.parent !== null && frame.copy !== null) put(frame.parent, frame.slot, frame.copy);
      continue;
    }
    const i = frame.next++;
    const key = keys === null ? i : keys[i]!;
    const slot = frame.renamed === null ? key : frame.renamed[i]!;
    // A key mapped onto the name of a later key: the later value takes its place.
    if (frame.renamed !== null && frame.renamed.lastIndexOf(slot as string) !== i) continue;
    const item = (source as Record<string | number, unknown>)[key];
    if (typeof item === 'string') {
      if (frame.image && key === 'data') continue;
      const mapped = map.value(item);
      if (mapped !== item) put(frame, slot, mapped);
    } else if (item !== null && typeof item === 'object') stack.push(frameOf(item, frame, slot, map));
  }
  return (root.copy ?? value) as T;
}

/** The frame of an object or array about to be walked; an object whose keys change is copied at once. */
function frameOf(
  source: object,
  parent: Frame | null,
  slot: string | number,
  map: StringMap,
  known?: string[],
): Frame {
  if (Array.isArray(source))
    return { source, keys: null, renamed: null, next: 0, image: false, copy: null, parent, slot };
  const record = source as Record<string, unknown>;
  const keys = Object.keys(record);
  const renamed = known ?? (map.key ? renamedKeys(keys, map.key) : null);
  const frame: Frame = {
    source: record,
    keys,
    renamed,
    next: 0,
    image: isImage(record),
    copy: null,
    parent,
    slot,
  };
  if (renamed !== null) {
    // The keys in their order, a key mapped onto another's name taking its place (the later value wins).
    const copy: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) define(copy, renamed[i]!, record[keys[i]!]);
    frame.copy = copy;
  }
  return frame;
}

/** The keys mapped, or null when none changed. */
function renamedKeys(keys: readonly string[], mapKey: (text: string) => string): string[] | null {
  let renamed: string[] | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const mapped = mapKey(key);
    if (mapped === key && renamed === null) continue;
    renamed ??= keys.slice(0, i);
    renamed.push(mapped);
  }
  return renamed;
}

/** The keys mapped, those before `at` known to be unchanged and the one at `at` known to be mapped to `first`. */
function renamedFrom(keys: readonly string[], mapKey: (text: string) => string, at: number, first: string) {
  const renamed = keys.slice(0, at);
  renamed.push(first);
  for (let i = at + 1; i < keys.length; i++) renamed.push(mapKey(keys[i]!));
  return renamed;
}

/** Whether an object is an image: its `data` is a payload, not text. */
function isImage(record: Record<string, unknown>): boolean {
  return record.type === 'image' || record.type === 'base64';
}

/** Sets a value in a frame's copy, copying its source first. */
function put(frame: Frame, slot: string | number, value: unknown): void {
  if (frame.copy === null) {
    // Its parent gets the copy when the frame ends.
    frame.copy = Array.isArray(frame.source) ? frame.source.slice() : { ...frame.source };
  }
  if (typeof slot === 'number') (frame.copy as unknown[])[slot] = value;
  else define(frame.copy as Record<string, unknown>, slot, value);
}

/** Sets an own property, `__proto__` included (an assignment to it would change the object's prototype). */
function define(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}
