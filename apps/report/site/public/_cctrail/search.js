/* cctrail report: the search page (classic script, works from file://; no module syntax, no network).
   Titles, first prompts and agents from search-index.js at once; the words of every transcript from the
   transcript index (_cctrail/search/, see the report's build/search-files.ts), of which a query loads only
   what it needs, each file a classic script: the term files holding the query's words (t<n>.js, found by
   the first term of each file, in search-index.js), then the entry files of the results shown (d<n>.js). */
(() => {
  const q = document.getElementById('q');
  const results = document.getElementById('search-results');
  const status = document.getElementById('search-status');
  const hits = document.getElementById('search-hits');
  const hitStatus = document.getElementById('search-hits-status');
  if (!q || !results || !window.CCTRAIL_SEARCH) return;
  const items = window.CCTRAIL_SEARCH;
  const prefix = '../';
  const SHOWN = 20;
  const LONGEST_TERM = 40;
  const WEIGHTS = 8;
  const PREFIX_WEIGHT = 0.5;
  if (q.form)
    q.form.addEventListener('submit', (e) => {
      e.preventDefault();
    });
  const sessions = {};
  items.forEach((it) => {
    if (it.k === 'session') sessions[it.u] = it;
  });
  const meta = window.CCTRAIL_SEARCH_FILES || null;

  /* Files of the index: each a script calling back with its text; one load per file, shared. */
  const loaded = {};
  const arrived = {};
  let loads = 0;
  const arrive = (name, value) => {
    const f = arrived[name];
    if (f) f.resolve(value);
  };
  window.CCTRAIL_SEARCH_TERMS = (n, text) => arrive('t' + n, ',' + text + ',');
  window.CCTRAIL_SEARCH_DOCS = (n, text) => arrive('d' + n, JSON.parse(text));
  const load = (name) => {
    if (!loaded[name]) {
      loaded[name] = new Promise((resolve) => {
        arrived[name] = { resolve };
        const s = document.createElement('script');
        s.src = prefix + '_cctrail/search/' + name + '.js';
        s.onerror = () => resolve(null);
        loads++;
        document.body.appendChild(s);
      });
    }
    return loaded[name];
  };

  /* The postings of a word in a term file (`,term postings,term postings,…,`, kept as text: a query reads
     only its words), and for a prefix those of every longer term starting with it (they follow it). */
  function postings(file, word, isPrefix, each) {
    let at = file.indexOf(',' + word + (isPrefix ? '' : ' '));
    while (at >= 0 && at < file.length - 1) {
      const space = file.indexOf(' ', at);
      const end = file.indexOf(',', space);
      const term = file.slice(at + 1, space);
      if (term.indexOf(word) !== 0) return;
      each(term, file.slice(space + 1, end));
      if (!isPrefix) return;
      at = end;
    }
  }
  const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const VALUE = {};
  for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;
  /* Adds a term's postings to the scores: idf × the posting's weight (BM25 folded in at build time). */
  function score(code, scores, factor) {
    let df = 0;
    for (let i = 0; i < code.length; i++) if (VALUE[code.charCodeAt(i)] < 32) df++;
    const idf = Math.log(1 + (meta.n - df + 0.5) / (df + 0.5));
    let last = -1;
    let v = 0;
    let scale = 1;
    for (let i = 0; i < code.length; i++) {
      const d = VALUE[code.charCodeAt(i)];
      if (d >= 32) {
        v += (d - 32) * scale;
        scale *= 32;
        continue;
      }
      v += d * scale;
      last += Math.floor(v / WEIGHTS) + 1;
      const s = idf * factor * ((v % WEIGHTS) + 1);
      if (s > scores[last]) scores[last] = s;
      v = 0;
      scale = 1;
    }
  }
  /* The term files a word needs: its own, or for a prefix every file its range of terms spans. */
  function fileRange(word, isPrefix) {
    const first = meta.t;
    let lo = 0;
    while (lo + 1 < first.length && first[lo + 1] <= word) lo++;
    let hi = lo;
    if (isPrefix) while (hi + 1 < first.length && first[hi + 1].indexOf(word) === 0) hi++;
    const out = [];
    for (let n = lo; n <= hi; n++) out.push(n);
    return out;
  }
  /* The query's words as indexed: runs of letters and digits, lower case, a prefix when 3 or more long. */
  function queryWords(text) {
    return text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '' && w.length <= LONGEST_TERM);
  }
  /* Entries with every word (a word of 3 or more letters also as the start of a longer term), best first. */
  function match(words, files) {
    let total = null;
    words.forEach((word, i) => {
      const scores = new Float64Array(meta.n);
      files[i].forEach((file) => {
        if (!file) return;
        postings(file, word, word.length >= 3, (term, code) => {
          score(code, scores, term === word ? 1 : PREFIX_WEIGHT);
        });
      });
      if (total === null) total = scores;
      else
        for (let d = 0; d < total.length; d++)
          total[d] = total[d] > 0 && scores[d] > 0 ? total[d] + scores[d] : 0;
    });
    const docs = [];
    for (let d = 0; d < total.length; d++) if (total[d] > 0) docs.push(d);
    return { docs, score: total, sorted: false };
  }
  /* Results `from` … `to` in order of score (then newest first): the first ones picked without sorting all. */
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
  /* A result: [session (in the file's list), page (in the session's), anchor, first words]. */
  function addHit(part, entry) {
    const s = part.s[entry[0]];
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = prefix + s[1][entry[1]] + '#' + entry[2];
    a.textContent = entry[3];
    const m = document.createElement('div');
    m.className = 'muted small';
    const it = sessions[s[0]];
    m.textContent = it ? it.t + ' · ' + it.p + (it.d ? ' · ' + it.d.slice(0, 10) : '') : '';
    li.appendChild(a);
    li.appendChild(m);
    hits.appendChild(li);
  }

  let generation = 0;
  let more = null;
  /* Shows results `from` … `from + SHOWN` once their entry files are there. */
  function show(found, from, mine, started) {
    const docs = ranked(found, from, from + SHOWN);
    const names = [];
    docs.forEach((d) => {
      const name = 'd' + Math.floor(d / meta.k);
      if (names.indexOf(name) < 0) names.push(name);
    });
    // Results appear in order as their files arrive: the first as soon as its own file is there.
    const parts = {};
    let next = 0;
    const flush = () => {
      if (mine !== generation) return;
      while (next < docs.length) {
        const part = parts['d' + Math.floor(docs[next] / meta.k)];
        if (part === undefined) return;
        const entry = part?.d[docs[next] % meta.k];
        if (entry) addHit(part, entry);
        next++;
        if (from === 0 && next === 1)
          hits.setAttribute('data-first-ms', String(Math.round(performance.now() - started)));
      }
    };
    const arriving = names.map((name) =>
      load(name).then((part) => {
        parts[name] = part;
        flush();
      }),
    );
    return Promise.all(arriving).then(() => {
      if (mine !== generation) return;
      if (from === 0) hits.setAttribute('data-loads', String(loads));
      if (more) more.remove();
      more = null;
      const left = found.docs.length - from - SHOWN;
      if (left > 0) {
        more = document.createElement('button');
        more.type = 'button';
        more.className = 'search-more';
        more.textContent = 'Show ' + Math.min(SHOWN, left) + ' more';
        more.addEventListener('click', () => show(found, from + SHOWN, mine, performance.now()));
        hits.parentNode.appendChild(more);
      }
    });
  }
  function searchTranscripts(text, started) {
    const mine = ++generation;
    hits.textContent = '';
    hits.removeAttribute('data-first-ms');
    hitStatus.removeAttribute('data-ms');
    if (more) more.remove();
    more = null;
    const words = queryWords(text);
    if (!meta || words.length === 0) {
      hitStatus.textContent = meta ? 'Type to search inside every transcript.' : '';
      return;
    }
    hitStatus.textContent = 'Searching the transcripts…';
    loads = 0;
    const ranges = words.map((w) => fileRange(w, w.length >= 3));
    Promise.all(ranges.map((r) => Promise.all(r.map((n) => load('t' + n)))))
      .then((files) => {
        if (mine !== generation) return;
        const terms = performance.now();
        const found = match(words, files);
        hits.setAttribute(
          'data-phases',
          'terms ' +
            Math.round(terms - started) +
            ' ms, match ' +
            Math.round(performance.now() - terms) +
            ' ms',
        );
        const count = found.docs.length;
        hitStatus.textContent =
          count + ' in transcripts' + (count > SHOWN ? ', best ' + SHOWN + ' first' : '') + '.';
        return show(found, 0, mine, started).then(() => {
          if (mine === generation)
            hitStatus.setAttribute('data-ms', String(Math.round(performance.now() - started)));
        });
      })
      .catch(() => {
        if (mine === generation) hitStatus.textContent = 'The transcript index could not be loaded.';
      });
  }

  let timer = 0;
  function run(delay) {
    const started = performance.now();
    const terms = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    results.textContent = '';
    if (terms.length === 0) {
      status.textContent = items.length + ' sessions and sub-agent runs. Type to search.';
    } else {
      const found = items.filter((it) => {
        const hay = (it.t + ' ' + it.p + ' ' + it.x).toLowerCase();
        return terms.every((t) => hay.indexOf(t) >= 0);
      });
      status.textContent =
        found.length +
        ' session' +
        (found.length === 1 ? '' : 's') +
        ' or sub-agent' +
        (found.length === 1 ? '' : 's') +
        ' by title, prompt or agent' +
        (found.length > 200 ? ', first 200 shown' : '');
      found.slice(0, 200).forEach((it) => {
        const li = document.createElement('li');
        const a = document.createElement('a');
        a.href = prefix + it.u;
        a.textContent = it.t;
        const m = document.createElement('div');
        m.className = 'muted small';
        m.textContent =
          (it.k === 'agent' ? 'sub-agent · ' : 'session · ') + it.p + (it.d ? ' · ' + it.d.slice(0, 10) : '');
        li.appendChild(a);
        li.appendChild(m);
        results.appendChild(li);
      });
    }
    if (hits) {
      clearTimeout(timer);
      timer = setTimeout(() => searchTranscripts(q.value, started), delay);
    }
  }
  q.addEventListener('input', () => run(50));
  const m = /[?&]q=([^&]*)/.exec(location.search);
  if (m) {
    try {
      q.value = decodeURIComponent(m[1].replace(/\+/g, ' '));
    } catch (_e) {
      /* bad escape */
    }
  }
  run(0);
})();
