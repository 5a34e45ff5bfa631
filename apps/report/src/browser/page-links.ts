/**
 * Small behaviours of every page: tooltips of chart elements, the header's search box, and links to commits.
 */

/** Tooltips for chart elements with `data-tip` (the SVG also has `<title>` for no-JS). */
export function tooltips(): void {
  let tip: HTMLDivElement | null = null;
  document.addEventListener('mouseover', (e) => {
    const el = e.target instanceof Element ? e.target.closest('[data-tip]') : null;
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
    tip.style.left = `${Math.max(4, Math.min(window.innerWidth - 260, r.left + r.width / 2 - 120)) + window.scrollX}px`;
    tip.style.top = `${r.top + window.scrollY - tip.offsetHeight - 8}px`;
  });
}

/** The header's search: goes to the search page with the query (a plain form submit may be refused from file://). */
export function quickSearch(): void {
  const quick = document.querySelector('form.quick-search');
  quick?.addEventListener('submit', (e) => {
    e.preventDefault();
    const input = quick.querySelector('input');
    window.location.href = `${quick.getAttribute('action')}?q=${encodeURIComponent(input ? input.value : '')}`;
  });
}

/**
 * Commit SHAs of `git commit` outputs as links, when the report was built with --repo (the page's
 * `data-commit-base` is `<repo>/commit/`, checked at build time).
 */
export function commitLinks(): void {
  const commitBase = document.body.getAttribute('data-commit-base');
  if (!commitBase) return;
  for (const span of document.querySelectorAll('span.sha[data-sha]')) {
    const sha = span.getAttribute('data-sha') ?? '';
    if (!/^[0-9a-f]{7,40}$/.test(sha)) continue;
    const a = document.createElement('a');
    a.href = commitBase + sha;
    a.rel = 'noopener noreferrer';
    a.className = 'sha';
    a.textContent = sha;
    span.replaceWith(a);
  }
}
