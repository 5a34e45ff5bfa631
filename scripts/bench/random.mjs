// Deterministic randomness and text for the generators: the same seed always gives the same bytes.

/** mulberry32: small, fast, deterministic; returns a function giving numbers in [0, 1). */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS =
  'the a function return const value file read write test error handle session config branch agent tool result compact token cache build page line parse graph node edge path query index async await import export module type interface class method string number array object map set'.split(
    ' ',
  );

/** A pool of text (JSON-escaped newlines included) to slice from: generating words one by one would dominate the generator's time. */
export function textPool(random, size) {
  const parts = [];
  let length = 0;
  while (length < size) {
    const word = WORDS[Math.floor(random() * WORDS.length)];
    parts.push(word);
    length += word.length + 1;
    if (random() < 0.08) {
      parts.push('\\n');
      length += 2;
    }
  }
  return parts.join(' ');
}

export function uuidFrom(random) {
  const hex = () =>
    Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  const a = hex() + hex() + hex() + hex();
  return `${a.slice(0, 8)}-${a.slice(8, 12)}-4${a.slice(13, 16)}-a${a.slice(17, 20)}-${a.slice(20, 32)}`;
}
