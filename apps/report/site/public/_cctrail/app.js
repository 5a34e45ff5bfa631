/* cctrail report: classic script (works from file://). Theme toggle, sortable tables, tooltips, the header
   search, Mermaid rendering with node links (the search page: search.js). No module syntax, no network. */
(() => {
  const root = document.documentElement;

  function isDark() {
    const t = root.getAttribute('data-theme');
    if (t) return t === 'dark';
    return !!window.matchMedia?.('(prefers-color-scheme: dark)').matches;
  }

  const toggle = document.getElementById('theme-toggle');
  if (toggle) {
    toggle.setAttribute('aria-pressed', String(isDark()));
    toggle.addEventListener('click', () => {
      const next = isDark() ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      toggle.setAttribute('aria-pressed', String(next === 'dark'));
      try {
        localStorage.setItem('cctrail-theme', next);
      } catch (_e) {
        /* storage may be off for file:// */
      }
      renderGraphs(true);
    });
  }

  /* Sortable tables: click a header with data-sort. Cells may carry data-v with the sort value. */
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), (table) => {
    const heads = table.querySelectorAll('th[data-sort]');
    Array.prototype.forEach.call(heads, (th, col) => {
      th.tabIndex = 0;
      th.classList.add('sort-head');
      function sort() {
        const numeric = th.getAttribute('data-sort') === 'num';
        const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        Array.prototype.forEach.call(heads, (h) => {
          h.removeAttribute('aria-sort');
        });
        th.setAttribute('aria-sort', dir);
        const body = table.tBodies[0];
        const rows = Array.prototype.slice.call(body.rows);
        rows.sort((a, b) => {
          const ca = a.cells[col],
            cb = b.cells[col];
          const va = ca
            ? ca.getAttribute('data-v') !== null
              ? ca.getAttribute('data-v')
              : ca.textContent
            : '';
          const vb = cb
            ? cb.getAttribute('data-v') !== null
              ? cb.getAttribute('data-v')
              : cb.textContent
            : '';
          const r = numeric
            ? (parseFloat(va) || 0) - (parseFloat(vb) || 0)
            : String(va).localeCompare(String(vb));
          return dir === 'ascending' ? r : -r;
        });
        rows.forEach((r) => {
          body.appendChild(r);
        });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          sort();
        }
      });
    });
  });

  /* Tooltips for chart elements with data-tip (the SVG also has <title> for no-JS). */
  let tip = null;
  document.addEventListener('mouseover', (e) => {
    const el = e.target?.closest ? e.target.closest('[data-tip]') : null;
    if (!el) {
      if (tip) tip.hidden = true;
      return;
    }
    if (!tip) {
      tip = document.createElement('div');
      tip.className = 'tip';
      tip.setAttribute('role', 'tooltip');
      document.body.appendChild(tip);
    }
    tip.textContent = el.getAttribute('data-tip');
    tip.hidden = false;
    const r = el.getBoundingClientRect();
    tip.style.left =
      Math.max(4, Math.min(window.innerWidth - 260, r.left + r.width / 2 - 120)) + window.scrollX + 'px';
    tip.style.top = r.top + window.scrollY - tip.offsetHeight - 8 + 'px';
  });

  /* Header search: go to the search page with the query (a plain form submit may be refused from file://). */
  const quick = document.querySelector('form.quick-search');
  if (quick) {
    quick.addEventListener('submit', (e) => {
      e.preventDefault();
      const input = quick.querySelector('input');
      window.location.href = `${quick.getAttribute('action')}?q=${encodeURIComponent(input ? input.value : '')}`;
    });
  }

  /* The search page has its own script (search.js). */

  /* Transcript (search/transcript block): a link to an entry opens what hides it (a collapsed tool call,
     "show all", a quiet entry), so the place a search result names is in view. */
  function revealTarget() {
    const id = decodeURIComponent(location.hash.slice(1));
    const el = id ? document.getElementById(id) : null;
    if (!el) return;
    for (let d = el.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    if (el.tagName === 'DETAILS') el.open = true;
    el.classList.add('is-target');
    el.scrollIntoView({ block: 'start' });
  }
  window.addEventListener('hashchange', revealTarget);
  if (location.hash.length > 1) revealTarget();

  /* Arriving from a search result (`?q=words#e-…`): the words are marked in the entry (for a tool's result
     folded into its call's card, in that card), and the first one is opened and scrolled into view. Words
     match as on the search page (search-match.js): a word, or for 3 characters or more, a word's start. */
  function markFound() {
    const query = /[?&]q=([^&]*)/.exec(location.search);
    let target = null;
    let words = [];
    try {
      target = query ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
      words = query
        ? decodeURIComponent(query[1].replace(/\+/g, ' '))
            .toLowerCase()
            .split(/[^\p{L}\p{N}]+/u)
        : [];
    } catch (_e) {
      return; /* a bad escape */
    }
    words = words.filter((w) => w !== '');
    if (!target || words.length === 0) return;
    const scope = target.classList.contains('anchor-only') ? target.closest('.entry') || target : target;
    const walk = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    const texts = [];
    for (let n = walk.nextNode(); n; n = walk.nextNode()) if (!n.parentElement.closest('svg')) texts.push(n);
    // The page goes to the first place of the word found least (the one the query is most about).
    const found = words.map(() => []);
    texts.forEach((node) => {
      const text = node.nodeValue;
      const run = /[\p{L}\p{N}]+/gu;
      const pieces = document.createDocumentFragment();
      let at = 0;
      for (let m = run.exec(text); m; m = run.exec(text)) {
        const w = m[0].toLowerCase();
        const k = words.findIndex((q) => w === q || (q.length >= 3 && w.indexOf(q) === 0));
        if (k < 0) continue;
        pieces.appendChild(document.createTextNode(text.slice(at, m.index)));
        const mark = document.createElement('mark');
        mark.className = 'found';
        mark.textContent = m[0];
        pieces.appendChild(mark);
        found[k].push(mark);
        at = m.index + m[0].length;
      }
      if (at === 0) return;
      pieces.appendChild(document.createTextNode(text.slice(at)));
      node.parentNode.replaceChild(pieces, node);
    });
    const least = found.filter((marks) => marks.length > 0).sort((a, b) => a.length - b.length)[0];
    if (!least) return;
    const first = least[0];
    for (let d = first.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
    const show = () => first.scrollIntoView({ block: 'center' });
    show();
    // The browser scrolls to the anchor itself once the page has loaded: the word again after it.
    if (document.readyState !== 'complete') window.addEventListener('load', show, { once: true });
  }
  markFound();

  /* Commit SHAs of `git commit` outputs as links, when the report was built with --repo (the page's
     data-commit-base is `<repo>/commit/`, checked at build time). */
  const commitBase = document.body.getAttribute('data-commit-base');
  if (commitBase)
    Array.prototype.forEach.call(document.querySelectorAll('span.sha[data-sha]'), (span) => {
      const sha = span.getAttribute('data-sha');
      if (!/^[0-9a-f]{7,40}$/.test(sha)) return;
      const a = document.createElement('a');
      a.href = commitBase + sha;
      a.rel = 'noopener noreferrer';
      a.className = 'sha';
      a.textContent = sha;
      span.replaceWith(a);
    });

  /* ---- Flowchart (begin) -------------------------------------------------------------------------------
     Mermaid (3.6 MB) is not in the page: it is loaded once the page is usable (after `load`, when the main
     thread is idle) and a chart is in view, or when a part of a long session is opened. Each chart is drawn
     once, fits its box's width, and can be zoomed and dragged. Without Mermaid the node lists stay. */
  const drawn = [];
  let mermaidState = 0;
  const afterMermaid = [];
  function loadMermaid(graph, then) {
    if (window.mermaid) return then();
    afterMermaid.push(then);
    if (mermaidState !== 0) return;
    mermaidState = 1;
    const s = document.createElement('script');
    s.src = graph.getAttribute('data-mermaid-src');
    root.setAttribute('data-mermaid-requested', String(Math.round(performance.now())));
    s.onload = () => {
      mermaidState = 2;
      afterMermaid.splice(0).forEach((f) => {
        f();
      });
    };
    s.onerror = () => {
      mermaidState = 3;
      Array.prototype.forEach.call(document.querySelectorAll('[data-graph]'), (g) => {
        g.classList.add('graph--failed');
      });
    };
    document.body.appendChild(s);
  }
  function mermaidConfig() {
    const dark = isDark();
    window.mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: 'base',
      themeVariables: {
        fontFamily: 'system-ui, sans-serif',
        background: dark ? '#161b22' : '#ffffff',
        primaryColor: dark ? '#1c2d4a' : '#dbeafe',
        primaryTextColor: dark ? '#e6edf3' : '#0f172a',
        primaryBorderColor: dark ? '#6ea8fe' : '#2563eb',
        lineColor: dark ? '#8b949e' : '#64748b',
        textColor: dark ? '#e6edf3' : '#0f172a',
        edgeLabelBackground: dark ? '#161b22' : '#ffffff',
      },
      flowchart: { htmlLabels: false, useMaxWidth: true, curve: 'basis', wrappingWidth: 260 },
      maxTextSize: 2000000,
      maxEdges: 20000,
    });
  }
  function nodeListOf(graph) {
    let el = graph.nextElementSibling;
    while (el && !el.classList.contains('node-list')) el = el.nextElementSibling;
    return el;
  }
  function draw(graph) {
    const pre = graph.querySelector('pre.mermaid');
    if (!pre || graph.hasAttribute('data-drawing')) return;
    graph.setAttribute('data-drawing', '');
    if (!graph.cctrailSource) graph.cctrailSource = pre.textContent;
    else {
      pre.removeAttribute('data-processed');
      pre.textContent = graph.cctrailSource;
    }
    loadMermaid(graph, () => {
      mermaidConfig();
      window.mermaid.run({ nodes: [pre] }).then(
        () => {
          graph.removeAttribute('data-drawing');
          graph.classList.add('graph--drawn');
          if (drawn.indexOf(graph) < 0) drawn.push(graph);
          linkNodes(graph);
          paint(graph);
          zoomable(graph);
          root.setAttribute('data-flow-drawn', String(Math.round(performance.now())));
        },
        (err) => {
          graph.removeAttribute('data-drawing');
          graph.classList.add('graph--failed');
          const list = nodeListOf(graph);
          if (list) list.open = true;
          if (window.console) console.warn('cctrail: flowchart could not be drawn', err?.message);
        },
      );
    });
  }
  function paint(graph) {
    const css = getComputedStyle(root);
    const color = (name) => css.getPropertyValue(name).trim();
    Array.prototype.forEach.call(graph.querySelectorAll('svg g.node'), (node) => {
      const kind = ['abandoned', 'sidechain', 'compaction', 'epoch', 'active'].find((k) =>
        node.classList.contains(k),
      );
      if (!kind) return;
      const error = node.classList.contains('error');
      Array.prototype.forEach.call(node.querySelectorAll('rect, polygon, path'), (shape) => {
        shape.style.fill = color(`--flow-${kind}`);
        shape.style.stroke = error ? color('--error') : color(`--flow-${kind}-line`);
      });
      Array.prototype.forEach.call(node.querySelectorAll('text, tspan'), (text) => {
        text.style.fill = color('--flow-text');
      });
    });
  }
  function renderGraphs(again) {
    if (again) drawn.slice().forEach(draw);
  }
  function linkNodes(graph) {
    const list = nodeListOf(graph);
    if (!list) return;
    Array.prototype.forEach.call(graph.querySelectorAll('svg g.node'), (node) => {
      const m = /flowchart-([np]\d+)-/.exec(node.id || '');
      const a = m && list.querySelector(`a[data-node="${m[1]}"]`);
      if (!a) return;
      node.classList.add('linked');
      node.setAttribute('tabindex', '0');
      node.setAttribute('role', 'link');
      node.setAttribute('aria-label', a.textContent);
      const go = () => {
        const part =
          a.getAttribute('href').charAt(0) === '#' &&
          document.getElementById(a.getAttribute('href').slice(1));
        if (part && part.tagName === 'DETAILS') part.open = true;
        window.location.href = a.href;
      };
      node.addEventListener('click', go);
      node.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') go();
      });
    });
  }
  function zoomable(graph) {
    const svg = graph.querySelector('svg');
    if (!svg) return;
    const box = svg.viewBox?.baseVal;
    const natural = box?.width ? box.width : svg.getBoundingClientRect().width;
    let scale = 0;
    const apply = () => {
      if (scale === 0) {
        svg.style.width = '';
        svg.style.maxWidth = `min(100%, ${natural}px)`;
      } else {
        svg.style.maxWidth = 'none';
        svg.style.width = `${Math.round(natural * scale)}px`;
      }
    };
    apply();
    if (graph.previousElementSibling?.classList.contains('flow-tools')) graph.previousElementSibling.remove();
    const tools = document.createElement('div');
    tools.className = 'flow-tools';
    [
      ['out', '−', 'Zoom out'],
      ['fit', 'Fit', 'Fit to width'],
      ['in', '+', 'Zoom in'],
    ].forEach((b) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = b[1];
      button.title = b[2];
      button.setAttribute('aria-label', b[2]);
      button.addEventListener('click', () => {
        const fit = Math.min(1, graph.clientWidth / natural) || 1;
        const now = scale || fit;
        scale = b[0] === 'fit' ? 0 : Math.max(0.2, Math.min(4, b[0] === 'in' ? now * 1.25 : now / 1.25));
        apply();
      });
      tools.appendChild(button);
    });
    graph.parentNode.insertBefore(tools, graph);
    let drag = null;
    graph.addEventListener('pointerdown', (e) => {
      if (scale === 0 || e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, left: graph.scrollLeft, top: graph.scrollTop };
    });
    graph.addEventListener('pointermove', (e) => {
      if (!drag) return;
      graph.scrollLeft = drag.left - (e.clientX - drag.x);
      graph.scrollTop = drag.top - (e.clientY - drag.y);
    });
    const stop = () => {
      drag = null;
    };
    graph.addEventListener('pointerup', stop);
    graph.addEventListener('pointerleave', stop);
  }
  function whenIdle(f) {
    const later = () =>
      window.requestIdleCallback ? window.requestIdleCallback(f, { timeout: 1500 }) : setTimeout(f, 50);
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later);
  }
  const charts = document.querySelectorAll('[data-graph]:not([data-graph-lazy])');
  if (charts.length > 0) {
    whenIdle(() => {
      Array.prototype.forEach.call(charts, (graph) => {
        if (!window.IntersectionObserver) return draw(graph);
        const seen = new IntersectionObserver(
          (items) => {
            if (!items.some((i) => i.isIntersecting)) return;
            seen.disconnect();
            draw(graph);
          },
          { rootMargin: '200px' },
        );
        seen.observe(graph);
      });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll('details[data-flow-part]'), (part) => {
    const open = () => {
      const graph = part.querySelector('[data-graph]');
      if (part.open && graph && !graph.classList.contains('graph--drawn')) draw(graph);
    };
    part.addEventListener('toggle', open);
    if (location.hash === `#${part.id}`) part.open = true;
  });
  /* ---- Flowchart (end) ---------------------------------------------------------------------------------- */
  root.setAttribute('data-ready', String(Math.round(performance.now())));
})();
