/* cctrail report: the search page (classic script, works from file://; no module syntax, no network).
   Titles, first prompts and agents from search-index.js at once; the words of every transcript from the
   transcript index (_cctrail/search/, see the report's build/search-files.ts), of which a query loads only
   what it needs, each file a classic script: the term files holding the query's words (t<n>.js, found by
   the first term of each file, in search-index.js), then the entry files of the results shown (d<n>.js).
   Finding and ranking is search-match.js's (window.CCTRAIL_MATCH). */
(() => {
  const q = document.getElementById('q');
  const results = document.getElementById('search-results');
  const status = document.getElementById('search-status');
  const hits = document.getElementById('search-hits');
  const hitStatus = document.getElementById('search-hits-status');
  if (!q || !results || !window.CCTRAIL_SEARCH || !window.CCTRAIL_MATCH) return;
  const M = window.CCTRAIL_MATCH;
  const items = window.CCTRAIL_SEARCH;
  const prefix = '../';
  const SHOWN = 20;
  /* Characters of an entry's text shown under a result, around the first word found. */
  const SNIPPET = 140;
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

  /* The query's words, as the results shown were found. */
  let shownWords = [];
  /* A result: [session (in the file's list), page (in the session's), anchor, "who: first words"]. Its link
     carries the words (`?q=`), which the page marks in the entry (app.js). */
  function addHit(part, entry) {
    const s = part.s[entry[0]];
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = prefix + s[1][entry[1]] + '?q=' + encodeURIComponent(shownWords.join(' ')) + '#' + entry[2];
    const label = entry[3];
    const colon = label.indexOf(': ');
    const who = colon < 0 ? '' : label.slice(0, colon + 2);
    a.textContent = who;
    M.marked(M.snippet(label.slice(who.length), shownWords, SNIPPET), shownWords).forEach((piece) => {
      const node = piece[1] ? document.createElement('mark') : document.createTextNode(piece[0]);
      if (piece[1]) node.textContent = piece[0];
      a.appendChild(node);
    });
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
  /* Shows results (entries, in order) once their entry files are there: the first result's file alone, then
     the others, as from file:// chromium hands over scripts loaded together all at once (BENCHMARKS.md).
     Returns when the first result's file is there (`first`) and when all are (`all`). */
  function show(docs, from, mine, started) {
    const names = [];
    docs.forEach((d) => {
      const name = 'd' + Math.floor(d / meta.k);
      if (names.indexOf(name) < 0) names.push(name);
    });
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
    const take = (name) =>
      load(name).then((part) => {
        parts[name] = part;
        flush();
      });
    const first = names.length > 0 ? take(names[0]) : Promise.resolve();
    const all = first.then(() => (mine === generation ? Promise.all(names.slice(1).map(take)) : null));
    return { first, all };
  }
  /* A button for the results after the first `from` of a match, if there are more. */
  function offerMore(found, from, mine) {
    if (more) more.remove();
    more = null;
    const left = found.docs.length - from;
    if (left <= 0 || mine !== generation) return;
    more = document.createElement('button');
    more.type = 'button';
    more.className = 'search-more';
    more.textContent = 'Show ' + Math.min(SHOWN, left) + ' more';
    more.addEventListener('click', () =>
      show(M.ranked(found, from, from + SHOWN), from, mine, performance.now()).all.then(() =>
        offerMore(found, from + SHOWN, mine),
      ),
    );
    hits.parentNode.appendChild(more);
  }
  /* What the count counts: entries (a message, a tool call, a tool's result), several of which a page shows. */
  const counted = (count) =>
    count +
    (count === 1 ? ' entry' : ' entries') +
    ' in transcripts' +
    (count > SHOWN ? ', best ' + SHOWN + ' first' : '') +
    '.';
  function searchTranscripts(text, started) {
    const mine = ++generation;
    hits.textContent = '';
    hits.removeAttribute('data-first-ms');
    hitStatus.removeAttribute('data-ms');
    if (more) more.remove();
    more = null;
    const words = M.queryWords(text);
    shownWords = words;
    if (!meta || words.length === 0) {
      hitStatus.textContent = meta ? 'Type to search inside every transcript.' : '';
      return;
    }
    hitStatus.textContent = 'Searching the transcripts…';
    loads = 0;
    const ranges = words.map((w) => M.fileRange(meta.t, w));
    Promise.all(ranges.map((r) => Promise.all(r.map((n) => load('t' + n)))))
      .then((files) => {
        if (mine !== generation) return;
        const terms = performance.now();
        const lists = words.map((w, i) => M.termLists(files[i], w));
        // One word: its best entries come from the heads of its lists (best first), and the others are
        // counted once the first is on screen, while the other results' files load; more words: the entries
        // with all of them, then the best.
        let found = lists.length === 1 ? null : M.match(lists, meta.n);
        const first = found ? M.ranked(found, 0, SHOWN) : M.best(lists[0], meta.n, SHOWN);
        hits.setAttribute(
          'data-phases',
          'terms ' +
            Math.round(terms - started) +
            ' ms, match ' +
            Math.round(performance.now() - terms) +
            ' ms',
        );
        hitStatus.textContent =
          found || first.length < SHOWN
            ? counted(found ? found.docs.length : first.length)
            : 'Best ' + SHOWN + ' first, counting the others…';
        const shown = show(first, 0, mine, started);
        return shown.first
          .then(() => {
            if (mine !== generation) return;
            if (!found) found = M.match(lists, meta.n);
            hitStatus.textContent = counted(found.docs.length);
            return shown.all;
          })
          .then(() => {
            if (mine !== generation) return;
            hits.setAttribute('data-loads', String(loads));
            offerMore(found, SHOWN, mine);
            hitStatus.setAttribute('data-ms', String(Math.round(performance.now() - started)));
          });
      })
      .catch(() => {
        if (mine === generation) hitStatus.textContent = 'The transcript index could not be loaded.';
      });
  }

  /* Sessions and sub-agents `from` … `from + SHOWN` of those found by title, prompt or agent, then a button
     for the next ones (a few items to lay out, so the transcript search is not held up behind them). */
  let moreTitles = null;
  function showTitles(found, from) {
    if (moreTitles) moreTitles.remove();
    moreTitles = null;
    const list = document.createDocumentFragment();
    found.slice(from, from + SHOWN).forEach((it) => {
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
      list.appendChild(li);
    });
    results.appendChild(list);
    const left = found.length - from - SHOWN;
    if (left > 0) {
      moreTitles = document.createElement('button');
      moreTitles.type = 'button';
      moreTitles.className = 'search-more';
      moreTitles.textContent = 'Show ' + Math.min(SHOWN, left) + ' more';
      moreTitles.addEventListener('click', () => showTitles(found, from + SHOWN));
      results.parentNode.appendChild(moreTitles);
    }
  }

  /* An item's text in lower case, as its words are matched; made for all once the page is idle. */
  const haystack = (it) => {
    if (it.h === undefined) it.h = (it.t + ' ' + it.p + ' ' + it.x).toLowerCase();
    return it.h;
  };
  (window.requestIdleCallback || setTimeout)(() => items.forEach(haystack));

  let timer = 0;
  function run(delay) {
    const started = performance.now();
    const terms = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    results.textContent = '';
    if (moreTitles) moreTitles.remove();
    moreTitles = null;
    if (terms.length === 0) {
      status.textContent = items.length + ' sessions and sub-agent runs. Type to search.';
    } else {
      const found = items.filter((it) => terms.every((t) => haystack(it).indexOf(t) >= 0));
      status.textContent =
        found.length +
        ' session' +
        (found.length === 1 ? '' : 's') +
        ' or sub-agent' +
        (found.length === 1 ? '' : 's') +
        ' by title, prompt or agent' +
        (found.length > SHOWN ? ', first ' + SHOWN + ' shown' : '');
      showTitles(found, 0);
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
