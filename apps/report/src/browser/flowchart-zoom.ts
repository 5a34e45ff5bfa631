/**
 * A drawn chart's zoom: buttons to zoom out, fit the box's width and zoom in, placed before the chart, and,
 * once zoomed, dragging to move around.
 */
export function zoomable(graph: HTMLElement): void {
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
  const buttons: [string, string, string][] = [
    ['out', '−', 'Zoom out'],
    ['fit', 'Fit', 'Fit to width'],
    ['in', '+', 'Zoom in'],
  ];
  for (const [action, text, title] of buttons) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = text;
    button.title = title;
    button.setAttribute('aria-label', title);
    button.addEventListener('click', () => {
      const fit = Math.min(1, graph.clientWidth / natural) || 1;
      const now = scale || fit;
      scale = action === 'fit' ? 0 : Math.max(0.2, Math.min(4, action === 'in' ? now * 1.25 : now / 1.25));
      apply();
    });
    tools.appendChild(button);
  }
  graph.parentNode?.insertBefore(tools, graph);
  let drag: { x: number; y: number; left: number; top: number } | null = null;
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
