import { zoomable } from './flowchart-zoom.js';
import { page } from './report-window.js';
import { isDark } from './theme-toggle.js';

/**
 * The session flowcharts. Mermaid (3.6 MB) is not in the page: it is loaded once the page is usable (after
 * `load`, when the main thread is idle) and a chart is in view, or when a part of a long session is opened.
 * Each chart is drawn once, fits its box's width, and can be zoomed and dragged. Without Mermaid the node
 * lists stay.
 */

const root = document.documentElement;
/** Charts drawn, drawn again when the theme changes. */
const drawn: HTMLElement[] = [];
/** Mermaid's text of each chart, kept from before its first drawing. */
const sources = new WeakMap<HTMLElement, string>();
/** Mermaid's script: 0 not requested, 1 loading, 2 loaded, 3 failed. */
let mermaidState = 0;
const afterMermaid: (() => void)[] = [];

function loadMermaid(graph: HTMLElement, then: () => void): void {
  if (page.mermaid) {
    then();
    return;
  }
  afterMermaid.push(then);
  if (mermaidState !== 0) return;
  mermaidState = 1;
  const s = document.createElement('script');
  s.src = graph.getAttribute('data-mermaid-src') ?? '';
  root.setAttribute('data-mermaid-requested', String(Math.round(performance.now())));
  s.onload = () => {
    mermaidState = 2;
    for (const f of afterMermaid.splice(0)) f();
  };
  s.onerror = () => {
    mermaidState = 3;
    for (const g of document.querySelectorAll('[data-graph]')) g.classList.add('graph--failed');
  };
  document.body.appendChild(s);
}

function mermaidConfig(): void {
  const dark = isDark();
  page.mermaid?.initialize({
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

/** The list of a chart's nodes (`<details class="node-list">` after it). */
function nodeListOf(graph: HTMLElement): HTMLDetailsElement | null {
  let el = graph.nextElementSibling;
  while (el && !el.classList.contains('node-list')) el = el.nextElementSibling;
  return el as HTMLDetailsElement | null;
}

function draw(graph: HTMLElement): void {
  const pre = graph.querySelector<HTMLElement>('pre.mermaid');
  if (!pre || graph.hasAttribute('data-drawing')) return;
  graph.setAttribute('data-drawing', '');
  const source = sources.get(graph);
  if (source === undefined) sources.set(graph, pre.textContent ?? '');
  else {
    pre.removeAttribute('data-processed');
    pre.textContent = source;
  }
  loadMermaid(graph, () => {
    mermaidConfig();
    page.mermaid?.run({ nodes: [pre] }).then(
      () => {
        graph.removeAttribute('data-drawing');
        graph.classList.add('graph--drawn');
        if (!drawn.includes(graph)) drawn.push(graph);
        linkNodes(graph);
        paint(graph);
        zoomable(graph);
        root.setAttribute('data-flow-drawn', String(Math.round(performance.now())));
      },
      (err: unknown) => {
        graph.removeAttribute('data-drawing');
        graph.classList.add('graph--failed');
        const list = nodeListOf(graph);
        if (list) list.open = true;
        console.warn('cctrail: flowchart could not be drawn', err instanceof Error ? err.message : undefined);
      },
    );
  });
}

/** Paints each node with the `--flow-*` colours of its class (inline, so Mermaid's own rules do not win). */
function paint(graph: HTMLElement): void {
  const css = getComputedStyle(root);
  const color = (name: string) => css.getPropertyValue(name).trim();
  for (const node of graph.querySelectorAll('svg g.node')) {
    const kind = ['abandoned', 'sidechain', 'compaction', 'epoch', 'active'].find((k) =>
      node.classList.contains(k),
    );
    if (!kind) continue;
    const error = node.classList.contains('error');
    for (const shape of node.querySelectorAll<SVGElement>('rect, polygon, path')) {
      shape.style.fill = color(`--flow-${kind}`);
      shape.style.stroke = error ? color('--error') : color(`--flow-${kind}-line`);
    }
    for (const text of node.querySelectorAll<SVGElement>('text, tspan'))
      text.style.fill = color('--flow-text');
  }
}

/** Each node of a drawn chart links to its entry in the chart's node list. */
function linkNodes(graph: HTMLElement): void {
  const list = nodeListOf(graph);
  if (!list) return;
  for (const node of graph.querySelectorAll('svg g.node')) {
    const m = /flowchart-([np]\d+)-/.exec(node.id || '');
    const a = m && list.querySelector<HTMLAnchorElement>(`a[data-node="${m[1]}"]`);
    if (!a) continue;
    node.classList.add('linked');
    node.setAttribute('tabindex', '0');
    node.setAttribute('role', 'link');
    node.setAttribute('aria-label', a.textContent ?? '');
    const go = () => {
      const href = a.getAttribute('href') ?? '';
      const part = href.charAt(0) === '#' && document.getElementById(href.slice(1));
      if (part && part instanceof HTMLDetailsElement) part.open = true;
      window.location.href = a.href;
    };
    node.addEventListener('click', go);
    node.addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).key === 'Enter') go();
    });
  }
}

/** Draws the charts drawn so far again (their colours follow the theme). */
export function redrawCharts(): void {
  for (const graph of drawn.slice()) draw(graph);
}

function whenIdle(f: () => void): void {
  const later = () =>
    window.requestIdleCallback ? window.requestIdleCallback(f, { timeout: 1500 }) : setTimeout(f, 50);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later);
}

/** Draws each chart once it is in view after the page is idle, and a lazy one when its part is opened. */
export function flowcharts(): void {
  const charts = document.querySelectorAll<HTMLElement>('[data-graph]:not([data-graph-lazy])');
  if (charts.length > 0) {
    whenIdle(() => {
      for (const graph of charts) {
        if (!window.IntersectionObserver) {
          draw(graph);
          continue;
        }
        const seen = new IntersectionObserver(
          (items) => {
            if (!items.some((i) => i.isIntersecting)) return;
            seen.disconnect();
            draw(graph);
          },
          { rootMargin: '200px' },
        );
        seen.observe(graph);
      }
    });
  }
  for (const part of document.querySelectorAll<HTMLDetailsElement>('details[data-flow-part]')) {
    const open = () => {
      const graph = part.querySelector<HTMLElement>('[data-graph]');
      if (part.open && graph && !graph.classList.contains('graph--drawn')) draw(graph);
    };
    part.addEventListener('toggle', open);
    if (location.hash === `#${part.id}`) part.open = true;
  }
}
