/* cctrail report: how the search page finds and ranks entries in the transcript index (classic script, no DOM;
   the report's tests and benchmark evaluate it too). A term file's text is `,term postings,term postings,…,`
   in sorted order; postings are written by the report's views/search-codec.ts: best first (grouped by weight,
   heaviest first, documents increasing in a group), one number a posting, `(gap − 1) × 8 + (weight − 1)`,
   in base-64 digits of which 0–31 end a number. An entry's score for a word is the best over the word's
   terms (the word itself, and for a word of 3 or more characters each longer term it starts, at half
   weight) of idf × weight; for a query, the sum over its words, entries lacking a word left out. What a
   result shows: the part of its text around the first word found (`snippet`), cut into plain text and
   words found (`marked`), which the page inserts as text nodes and <mark> elements, never as HTML. */
(() => {
  const WEIGHTS = 8;
  const PREFIX_WEIGHT = 0.5;
  const LONGEST_TERM = 40;
  const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const VALUE = new Int8Array(128);
  for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

  /* The query's words as indexed: runs of letters and digits, lower case. */
  function queryWords(text) {
    return text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '' && w.length <= LONGEST_TERM);
  }
  /* The numbers of the term files a word needs (`first`: each file's first term): its own, or for a prefix
     every file its range of terms spans. */
  function fileRange(first, word) {
    let lo = 0;
    while (lo + 1 < first.length && first[lo + 1] <= word) lo++;
    let hi = lo;
    if (word.length >= 3) while (hi + 1 < first.length && first[hi + 1].indexOf(word) === 0) hi++;
    const out = [];
    for (let n = lo; n <= hi; n++) out.push(n);
    return out;
  }
  /* A word's lists in its term files (texts, null for a file that did not load): { code, factor } for the
     word and, for a prefix, each longer term it starts (those follow it in sorted order). */
  function termLists(files, word) {
    const out = [];
    const isPrefix = word.length >= 3;
    files.forEach((file) => {
      if (!file) return;
      let at = file.indexOf(',' + word + (isPrefix ? '' : ' '));
      while (at >= 0 && at < file.length - 1) {
        const space = file.indexOf(' ', at);
        const end = file.indexOf(',', space);
        const term = file.slice(at + 1, space);
        if (term.indexOf(word) !== 0) break;
        out.push({ code: file.slice(space + 1, end), factor: term === word ? 1 : PREFIX_WEIGHT });
        if (!isPrefix) break;
        at = end;
      }
    });
    return out;
  }
  /* A list read one posting at a time, best first: `doc` and `score` of the current posting after `next()`
     returned true. `n`: entries in the index (for the idf). */
  function cursor(list, n) {
    const code = list.code;
    let df = 0;
    for (let i = 0; i < code.length; i++) if (VALUE[code.charCodeAt(i)] < 32) df++;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * list.factor;
    const c = { doc: -1, score: 0, next: null };
    let i = 0;
    let group = 0;
    c.next = () => {
      if (i >= code.length) return false;
      let v = 0;
      let scale = 1;
      let d = VALUE[code.charCodeAt(i++)];
      while (d >= 32) {
        v += (d - 32) * scale;
        scale *= 32;
        d = VALUE[code.charCodeAt(i++)];
      }
      v += d * scale;
      const weight = (v % WEIGHTS) + 1;
      if (weight !== group) {
        group = weight;
        c.doc = -1;
      }
      c.doc += Math.floor(v / WEIGHTS) + 1;
      c.score = idf * weight;
      return true;
    };
    return c;
  }
  const ahead = (a, b) => a.score > b.score || (a.score === b.score && a.doc < b.doc);
  /* The best `count` entries for one word (its lists), in order, reading only the heads of the lists: the
     list whose next posting ranks first goes next, and an entry's first posting is its best. */
  function best(lists, n, count) {
    let live = lists.map((l) => cursor(l, n)).filter((c) => c.next());
    const out = [];
    const seen = new Set();
    while (out.length < count && live.length > 0) {
      let top = live[0];
      for (let k = 1; k < live.length; k++) if (ahead(live[k], top)) top = live[k];
      if (!seen.has(top.doc)) {
        seen.add(top.doc);
        out.push(top.doc);
      }
      if (!top.next()) live = live.filter((c) => c !== top);
    }
    return out;
  }
  /* Every entry with every word (`words`: each word's lists), with its score: { docs, score }. */
  function match(words, n) {
    let total = null;
    words.forEach((lists) => {
      const scores = new Float64Array(n);
      lists.forEach((list) => {
        const c = cursor(list, n);
        while (c.next()) if (c.score > scores[c.doc]) scores[c.doc] = c.score;
      });
      if (total === null) total = scores;
      else for (let d = 0; d < n; d++) total[d] = total[d] > 0 && scores[d] > 0 ? total[d] + scores[d] : 0;
    });
    const docs = [];
    if (total) for (let d = 0; d < n; d++) if (total[d] > 0) docs.push(d);
    return { docs, score: total, sorted: false };
  }
  /* Entries `from` … `to` of a match in order of score (then newest first), the first ones picked without
     sorting all. */
  function ranked(found, from, to) {
    const better = (a, b) => found.score[a] > found.score[b] || (found.score[a] === found.score[b] && a < b);
    if (from > 0 && !found.sorted) {
      found.docs.sort((a, b) => found.score[b] - found.score[a] || a - b);
      found.sorted = true;
    }
    if (found.sorted) return found.docs.slice(from, to);
    const top = [];
    found.docs.forEach((d) => {
      if (top.length === to && !better(d, top[to - 1])) return;
      let i = top.length === to ? to - 1 : top.length;
      while (i > 0 && better(d, top[i - 1])) {
        top[i] = top[i - 1];
        i--;
      }
      top[i] = d;
    });
    return top;
  }
  /* Where the query's words are in a text: [start, end) of each word of it (a run of letters and digits)
     that is one of them or, for a query word of 3 or more characters, starts with it (as terms match). */
  function wordsFound(text, words) {
    const out = [];
    const run = /[\p{L}\p{N}]+/gu;
    for (let m = run.exec(text); m; m = run.exec(text)) {
      const w = m[0].toLowerCase();
      if (words.some((q) => w === q || (q.length >= 3 && w.indexOf(q) === 0)))
        out.push([m.index, m.index + m[0].length]);
    }
    return out;
  }
  /* At most about `width` characters of a text around the first of the query's words it has (from a little
     before it, cut at spaces, "…" where cut), or its start when it has none. */
  function snippet(text, words, width) {
    if (text.length <= width) return text;
    const first = wordsFound(text, words)[0];
    if (!first) return text.slice(0, width).replace(/\s+\S*$/, '') + '…';
    let start = Math.max(0, Math.min(first[0] - Math.floor(width / 4), text.length - width));
    if (start > 0) {
      const space = text.indexOf(' ', start);
      if (space >= 0 && space < first[0]) start = space + 1;
    }
    let end = Math.min(text.length, start + width);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space >= first[1]) end = space;
    }
    return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
  }
  /* A text in pieces, [text, found] in order: the query's words (found true) and what is between them. */
  function marked(text, words) {
    const out = [];
    let at = 0;
    wordsFound(text, words).forEach(([start, end]) => {
      if (start > at) out.push([text.slice(at, start), false]);
      out.push([text.slice(start, end), true]);
      at = end;
    });
    if (at < text.length) out.push([text.slice(at), false]);
    return out;
  }
  window.CCTRAIL_MATCH = { queryWords, fileRange, termLists, best, match, ranked, snippet, marked };
})();
