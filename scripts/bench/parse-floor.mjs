// The floor of a reader of fields written in JavaScript (#26 item 5): a scanner that checks a line is one valid
// JSON object, as `JSON.parse` decides it, and materializes nothing, timed against `JSON.parse` on the same lines.
// A reader of the few fields `stats` needs must do at least this much on every line (the accounting of invalid
// lines depends on it), so its CPU is the most such a reader could save. Figures in BENCHMARKS.md.
//
//   node scripts/bench/parse-floor.mjs [FOLDER]   (default: the calibrated archive of benchmark 3 under .bench/)
//
// Lines longer than 8 KiB are left out: a structure-only build shrinks those before parsing (SHRINK_ABOVE).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const folder = process.argv[2] ?? resolve(import.meta.dirname, '../../.bench/archive-550-calibrated-x1');
const SHRINK_ABOVE = 8 * 1024;

function linesOf(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) linesOf(path, out);
    else if (name.endsWith('.jsonl'))
      for (const line of readFileSync(path, 'utf8').split('\n'))
        if (line !== '' && line.length <= SHRINK_ABOVE) out.push(line);
  }
  return out;
}

const CONTROL = /[\x00-\x1f]/;
const SPACE = 0x20;

function isHex(c) {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isEscape(c) {
  // " \ / b f n r t
  return (
    c === 0x22 ||
    c === 0x5c ||
    c === 0x2f ||
    c === 0x62 ||
    c === 0x66 ||
    c === 0x6e ||
    c === 0x72 ||
    c === 0x74
  );
}

/**
 * Whether the line is one JSON object, whitespace limited to spaces (any control character, tabs included,
 * answers false: a reader would hand such a line to `JSON.parse`). Strings are skipped with `indexOf`, their
 * escapes checked from one backslash to the next; containers on an explicit stack.
 */
function isObjectLine(t) {
  if (CONTROL.test(t)) return false;
  const n = t.length;
  let i = 0;
  let depth = 0;
  let backslash = t.indexOf('\\');
  const arrays = [];
  // The index after the string that opens at `at`, or -1.
  function string(at) {
    let close = t.indexOf('"', at + 1);
    if (close === -1) return -1;
    while (backslash !== -1 && backslash < close) {
      if (backslash < at) {
        backslash = t.indexOf('\\', at);
        continue;
      }
      const e = t.charCodeAt(backslash + 1);
      let next = backslash + 2;
      if (e === 0x75) {
        for (let k = 2; k < 6; k++) if (!isHex(t.charCodeAt(backslash + k))) return -1;
        next = backslash + 6;
      } else if (!isEscape(e)) return -1;
      if (next > close) {
        close = t.indexOf('"', next);
        if (close === -1) return -1;
      }
      backslash = t.indexOf('\\', next);
    }
    return close + 1;
  }
  // A key and its colon from `at` (spaces skipped): the index after the colon, or -1.
  function key(at) {
    let c = t.charCodeAt(at);
    while (c === SPACE) c = t.charCodeAt(++at);
    if (c !== 0x22) return -1;
    at = string(at);
    if (at < 0) return -1;
    c = t.charCodeAt(at);
    while (c === SPACE) c = t.charCodeAt(++at);
    return c === 0x3a ? at + 1 : -1;
  }
  let c = t.charCodeAt(i);
  while (c === SPACE) c = t.charCodeAt(++i);
  if (c !== 0x7b) return false;
  for (;;) {
    c = t.charCodeAt(i);
    while (c === SPACE) c = t.charCodeAt(++i);
    if (c === 0x7b || c === 0x5b) {
      arrays[depth++] = c === 0x5b;
      c = t.charCodeAt(++i);
      while (c === SPACE) c = t.charCodeAt(++i);
      if (c === (arrays[depth - 1] ? 0x5d : 0x7d)) {
        depth--;
        i++;
      } else {
        if (!arrays[depth - 1]) i = key(i);
        if (i < 0) return false;
        continue;
      }
    } else if (c === 0x22) i = string(i);
    else if (c === 0x74) i = t.startsWith('true', i) ? i + 4 : -1;
    else if (c === 0x66) i = t.startsWith('false', i) ? i + 5 : -1;
    else if (c === 0x6e) i = t.startsWith('null', i) ? i + 4 : -1;
    else i = number(t, i);
    if (i < 0) return false;
    // After a value: a comma, or the end of one or more containers.
    for (;;) {
      c = t.charCodeAt(i);
      while (c === SPACE) c = t.charCodeAt(++i);
      if (depth === 0) return i === n;
      if (c === 0x2c) {
        i = arrays[depth - 1] ? i + 1 : key(i + 1);
        if (i < 0) return false;
        break;
      }
      if (c !== (arrays[depth - 1] ? 0x5d : 0x7d)) return false;
      depth--;
      i++;
    }
  }
}

/** The index after a JSON number starting at `i`, or -1. */
function number(text, i) {
  const digit = (c) => c >= 0x30 && c <= 0x39;
  let c = text.charCodeAt(i);
  if (c === 0x2d) c = text.charCodeAt(++i);
  if (c === 0x30) c = text.charCodeAt(++i);
  else if (digit(c)) while (digit(c)) c = text.charCodeAt(++i);
  else return -1;
  if (c === 0x2e) {
    c = text.charCodeAt(++i);
    if (!digit(c)) return -1;
    while (digit(c)) c = text.charCodeAt(++i);
  }
  if (c === 0x65 || c === 0x45) {
    c = text.charCodeAt(++i);
    if (c === 0x2b || c === 0x2d) c = text.charCodeAt(++i);
    if (!digit(c)) return -1;
    while (digit(c)) c = text.charCodeAt(++i);
  }
  return i;
}

function parses(text) {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function cpuMs(lines, test) {
  const start = process.cpuUsage();
  let yes = 0;
  for (const line of lines) if (test(line)) yes++;
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, yes };
}

const lines = linesOf(folder);
let chars = 0;
for (const line of lines) chars += line.length;
let differ = 0;
for (const line of lines) if (parses(line) !== isObjectLine(line)) differ++;
console.log(
  `${lines.length} lines of at most ${SHRINK_ABOVE} characters, ${(chars / 1e6).toFixed(1)} M characters; ` +
    `the scanner and JSON.parse differ on ${differ}.`,
);
for (let round = 1; round <= 4; round++) {
  const parse = cpuMs(lines, parses);
  const scan = cpuMs(lines, isObjectLine);
  const control = cpuMs(lines, (line) => CONTROL.test(line));
  console.log(
    `round ${round}: JSON.parse ${parse.ms.toFixed(0)} ms, scanner ${scan.ms.toFixed(0)} ms ` +
      `(of which the control-character check ${control.ms.toFixed(0)} ms), CPU`,
  );
}
