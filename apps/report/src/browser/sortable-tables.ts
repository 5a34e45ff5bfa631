/** A cell's sort value: its `data-v`, else its text. */
function sortValue(cell: HTMLTableCellElement | undefined): string {
  if (!cell) return '';
  return cell.getAttribute('data-v') ?? cell.textContent ?? '';
}

/** Sortable tables: a click (or Enter, Space) on a header with `data-sort` (`num`: by number) sorts its rows. */
export function sortableTables(): void {
  for (const table of document.querySelectorAll<HTMLTableElement>('table.sortable')) {
    const heads = table.querySelectorAll<HTMLTableCellElement>('th[data-sort]');
    heads.forEach((th, col) => {
      th.tabIndex = 0;
      th.classList.add('sort-head');
      const sort = () => {
        const numeric = th.getAttribute('data-sort') === 'num';
        const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        for (const h of heads) h.removeAttribute('aria-sort');
        th.setAttribute('aria-sort', dir);
        const body = table.tBodies[0];
        if (!body) return;
        const rows = [...body.rows];
        rows.sort((a, b) => {
          const va = sortValue(a.cells[col]);
          const vb = sortValue(b.cells[col]);
          const r = numeric
            ? (Number.parseFloat(va) || 0) - (Number.parseFloat(vb) || 0)
            : va.localeCompare(vb);
          return dir === 'ascending' ? r : -r;
        });
        for (const r of rows) body.appendChild(r);
      };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          sort();
        }
      });
    });
  }
}
