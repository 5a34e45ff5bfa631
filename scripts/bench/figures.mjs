// Figures measured for each build, and the table that sets "before" against "after", figure by figure.

import { median } from './measure.mjs';

/** A baseline as the table names it: its commit when known. */
function name(b) {
  return b.commit ? `${b.name} (${b.commit})` : b.name;
}

/** Collects the measured values of every figure, per build, in the order figures are first recorded. */
export function createFigures() {
  const figures = new Map();
  return {
    /** Records values of `label` (lower is better) for a build; `format` prints a median. */
    add(label, buildName, values, format) {
      const figure = figures.get(label) ?? { label, format, values: {} };
      figure.values[buildName] = [...(figure.values[buildName] ?? []), ...values];
      figures.set(label, figure);
    },
    /**
     * Markdown: every figure measured for this checkout and a baseline, each baseline's median, this checkout's, the
     * ratio to each, and whether it stays within 5 % of every baseline.
     * @param builds The builds of the run (`builds.mjs`): `after` and its baselines, named in the table by commit.
     */
    comparison(builds = [{ name: 'before' }, { name: 'after' }]) {
      const bases = builds.filter((b) => b.name !== 'after');
      const rows = [];
      for (const { label, format, values } of figures.values()) {
        if (!values.after?.length || !bases.some((b) => values[b.name]?.length)) continue;
        const after = median(values.after);
        const cells = bases.map((b) => (values[b.name]?.length ? median(values[b.name]) : null));
        const ratios = cells.map((before) => (before === null ? null : after / before));
        const worse = ratios
          .map((r, i) =>
            r !== null && r > 1.05 ? `${((r - 1) * 100).toFixed(0)} % worse than ${name(bases[i])}` : null,
          )
          .filter((w) => w !== null);
        rows.push(
          `| ${label} | ${cells.map((c) => (c === null ? '—' : format(c))).join(' | ')} | ${format(after)} | ${ratios.map((r) => (r === null ? '—' : r.toFixed(2))).join(' | ')} | ${worse.length ? `**${worse.join('; ')}**` : 'within 5 %'} |`,
        );
      }
      if (!rows.length) return '';
      const heads = bases.map(name);
      return `| figure (median; lower is better) | ${heads.join(' | ')} | after | ${heads.map((h) => `after / ${h}`).join(' | ')} | |
| --- | ${heads.map(() => '---').join(' | ')} | --- | ${heads.map(() => '---').join(' | ')} | --- |
${rows.join('\n')}`;
    },
  };
}
