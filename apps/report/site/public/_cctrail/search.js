/* cctrail report: the search page (classic script, works from file://; no module syntax, no network).
   Titles, first prompts and agents from search-index.js at once; the words of every transcript from the
   transcript index (_cctrail/search/, see the report's build/search-files.ts), of which a query loads only
   what it needs, each file a classic script: meta.js (the first term of each term file, each session's
   first entry and pages), the term files holding the query's words (t<n>.js), then the entry files of the
   results shown (d<n>.js). */
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
  const indexed = (window.CCTRAIL_SEARCH_FILES || 0) > 0;

  /* Files of the index: each a script calling back with its text; one load per file, shared. */
  const loaded = {};
  const arrived = {};
  let meta = null;
  let loads = 0;
  const arrive = (name, value) => {
    const f = arrived[name];
    if (f) f.resolve(value);
  };
  window.CCTRAIL_SEARCH_META = (text) => arrive('meta', JSON.parse(text));
  window.CCTRAIL_SEARCH_TERMS = (n, text) => arrive('t' + n, termFile(text));
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

  /* A term file: its terms in order, and each one's postings (decoded when a query needs them). */
  function termFile(text) {
    const terms = [];
    const codes = {};
    text.split(',').forEach((entry) => {
      const space = entry.indexOf(' ');
      const term = entry.slice(0, space);
      terms.push(term);
      codes[term] = entry.slice(space + 1);
    });
    return { terms, codes };
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
        if (file.codes[word] !== undefined) score(file.codes[word], scores, 1);
        if (word.length < 3) return;
        file.terms.forEach((term) => {
          if (term !== word && term.indexOf(word) === 0) score(file.codes[term], scores, PREFIX_WEIGHT);
        });
      });
      if (total === null) total = scores;
      else
        for (let d = 0; d < total.length; d++)
          total[d] = total[d] > 0 && scores[d] > 0 ? total[d] + scores[d] : 0;
    });
    const found = [];
    for (let d = 0; d < total.length; d++) if (total[d] > 0) found.push(d);
    found.sort((a, b) => total[b] - total[a] || a - b);
    return found;
  }
  function sessionOf(doc) {
    let lo = 0;
    let hi = meta.s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (meta.s[mid][0] <= doc) lo = mid;
      else hi = mid - 1;
    }
    return meta.s[lo];
  }
  function addHit(doc, entry) {
    const s = sessionOf(doc);
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = prefix + s[2][entry[0]] + '#' + entry[1];
    a.textContent = entry[2];
    const m = document.createElement('div');
    m.className = 'muted small';
    const it = sessions[s[1]];
    m.textContent = it ? it.t + ' · ' + it.p + (it.d ? ' · ' + it.d.slice(0, 10) : '') : '';
    li.appendChild(a);
    li.appendChild(m);
    hits.appendChild(li);
  }

  let generation = 0;
  let more = null;
  /* Shows results `from` … `from + SHOWN` once their entry files are there. */
  function show(found, from, mine, started) {
    const docs = found.slice(from, from + SHOWN);
    const names = [];
    docs.forEach((d) => {
      const name = 'd' + Math.floor(d / meta.k);
      if (names.indexOf(name) < 0) names.push(name);
    });
    return Promise.all(names.map(load)).then((parts) => {
      if (mine !== generation) return;
      const byName = {};
      names.forEach((name, i) => {
        byName[name] = parts[i];
      });
      docs.forEach((d) => {
        const part = byName['d' + Math.floor(d / meta.k)];
        const entry = part?.[d % meta.k];
        if (entry) addHit(d, entry);
      });
      if (from === 0 && docs.length > 0) {
        hits.setAttribute('data-first-ms', String(Math.round(performance.now() - started)));
        hits.setAttribute('data-loads', String(loads));
      }
      if (more) more.remove();
      more = null;
      if (found.length > from + SHOWN) {
        more = document.createElement('button');
        more.type = 'button';
        more.className = 'search-more';
        more.textContent = 'Show ' + Math.min(SHOWN, found.length - from - SHOWN) + ' more';
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
    if (!indexed || words.length === 0) {
      hitStatus.textContent = indexed ? 'Type to search inside every transcript.' : '';
      return;
    }
    hitStatus.textContent = 'Searching the transcripts…';
    loads = 0;
    load('meta')
      .then((m) => {
        if (!m) throw new Error('no meta');
        meta = m;
        const ranges = words.map((w) => fileRange(w, w.length >= 3));
        return Promise.all(ranges.map((r) => Promise.all(r.map((n) => load('t' + n)))));
      })
      .then((files) => {
        if (mine !== generation) return;
        const found = match(words, files);
        hitStatus.textContent =
          found.length + ' in transcripts' + (found.length > SHOWN ? ', best ' + SHOWN + ' first' : '') + '.';
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
  q.addEventListener('input', () => run(80));
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
