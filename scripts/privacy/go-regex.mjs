// Go (RE2) regular expressions as JavaScript ones, for the gitleaks rules (`gitleaks-rules.mjs`). RE2's inline
// flags are scoped (`(?i)` to the end of its group, `(?i:…)`, `(?-i:…)`, `(?s:…)`); Node 20 has none of them, so
// case-insensitive parts are written out (`a` → `[aA]`, `[a-z]` → `[a-zA-Z]`) and `.` under `s` as `[\s\S]`.
// `(?P<name>` becomes `(?<name>`, `\z` the end of the text, `\A` its start, POSIX classes their ranges.

const POSIX = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\t\\n\\v\\f\\r ',
  xdigit: '0-9A-Fa-f',
  word: '0-9A-Za-z_',
  punct: '!-\\/:-@\\[-`{-~',
};

const isLower = (c) => c >= 'a' && c <= 'z';
const isUpper = (c) => c >= 'A' && c <= 'Z';
const other = (c) => (isLower(c) ? c.toUpperCase() : c.toLowerCase());

/** Sets flags from a flag string such as `i`, `-i`, `is-m`. */
function withFlags(flags, text) {
  const next = { ...flags };
  let on = true;
  for (const c of text) {
    if (c === '-') on = false;
    else if (c === 'i' || c === 's') next[c] = on;
    else if (c !== 'm' && c !== 'U') throw new Error(`flag ${c}`);
    else if (on) throw new Error(`flag ${c}`);
  }
  return next;
}

/** A character class from `[` at `start`: its JavaScript text and where it ends. */
function characterClass(source, start, fold) {
  let i = start + 1;
  let open = '[';
  if (source[i] === '^') {
    open += '^';
    i++;
  }
  let out = '';
  const extra = [];
  let first = true;
  while (i < source.length && (source[i] !== ']' || first)) {
    first = false;
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(source.slice(i));
    if (posix) {
      if (posix[1] || !POSIX[posix[2]]) throw new Error(`class [:${posix[1]}${posix[2]}:]`);
      out += POSIX[posix[2]];
      i += posix[0].length;
      continue;
    }
    let c = source[i];
    if (c === '\\') {
      const escaped = source[i + 1];
      if (/[pPQ]/.test(escaped)) throw new Error(`\\${escaped} in a class`);
      c = `\\${escaped}`;
      i += 2;
    } else {
      if (c === '[') c = '\\[';
      i++;
    }
    // A range `a-z`.
    if (source[i] === '-' && source[i + 1] !== ']' && source[i + 1] !== undefined) {
      let to = source[i + 1];
      let step = 2;
      if (to === '\\') {
        to = `\\${source[i + 2]}`;
        step = 3;
      }
      out += `${c}-${to}`;
      if (fold && c.length === 1 && to.length === 1) {
        if (isLower(c) && isLower(to)) extra.push(`${c.toUpperCase()}-${to.toUpperCase()}`);
        else if (isUpper(c) && isUpper(to)) extra.push(`${c.toLowerCase()}-${to.toLowerCase()}`);
        else if ((c <= 'Z' && to >= 'a') || (c <= 'z' && to >= 'a') || (c <= 'Z' && to >= 'A'))
          extra.push('A-Za-z');
      }
      i += step;
      continue;
    }
    out += c === '/' ? '\\/' : c;
    if (fold && c.length === 1 && (isLower(c) || isUpper(c))) extra.push(other(c));
  }
  if (source[i] !== ']') throw new Error('unclosed class');
  // The other letter case first: after a last `-` it would make a range.
  return { text: `${open}${extra.join('')}${out}]`, end: i + 1 };
}

/**
 * The JavaScript source of a Go regular expression (to be compiled without flags).
 *
 * @param {string} source
 * @returns {string}
 */
export function jsRegex(source) {
  const stack = [];
  let flags = { i: false, s: false };
  let out = '';
  for (let i = 0; i < source.length; ) {
    const c = source[i];
    if (c === '\\') {
      const e = source[i + 1];
      if (e === 'z') out += '(?![\\s\\S])';
      else if (e === 'A') out += '(?<![\\s\\S])';
      else if (e === 'Q' || e === 'C' || e === 'p' || e === 'P') throw new Error(`\\${e}`);
      else if (flags.i && /[a-zA-Z]/.test(e) && !/[dDwWsSbBnrtfvx]/.test(e)) out += `[${e}${other(e)}]`;
      else out += `\\${e}`;
      i += 2;
    } else if (c === '[') {
      const { text, end } = characterClass(source, i, flags.i);
      out += text;
      i = end;
    } else if (c === '(') {
      const rest = source.slice(i);
      const set = /^\(\?([a-zA-Z-]+)\)/.exec(rest);
      const scoped = /^\(\?([a-zA-Z-]*):/.exec(rest);
      const named = /^\(\?P?<([A-Za-z_]\w*)>/.exec(rest);
      if (set) {
        flags = withFlags(flags, set[1]); // to the end of the enclosing group
        i += set[0].length;
        continue;
      }
      stack.push(flags);
      if (scoped) {
        flags = withFlags(flags, scoped[1]);
        out += '(?:';
        i += scoped[0].length;
      } else if (named) {
        out += `(?<${named[1]}>`;
        i += named[0].length;
      } else if (rest[1] === '?') throw new Error(`group ${rest.slice(0, 4)}`);
      else {
        out += '(';
        i++;
      }
    } else if (c === ')') {
      if (stack.length === 0) throw new Error('unbalanced )');
      flags = stack.pop();
      out += ')';
      i++;
    } else if (c === '.') {
      out += flags.s ? '[\\s\\S]' : '.';
      i++;
    } else if (c === '/') {
      out += '\\/';
      i++;
    } else if (flags.i && (isLower(c) || isUpper(c))) {
      out += `[${c}${other(c)}]`;
      i++;
    } else if (c === '{' && /^\{\d+(?:,\d*)?\}/.test(source.slice(i))) {
      const q = /^\{\d+(?:,\d*)?\}/.exec(source.slice(i))[0];
      out += q;
      i += q.length;
    } else {
      out += c;
      i++;
    }
  }
  if (stack.length > 0) throw new Error('unbalanced (');
  new RegExp(out); // throws when JavaScript reads it otherwise
  return out;
}
