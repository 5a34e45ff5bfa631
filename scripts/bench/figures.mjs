// Figures measured for each build, and the table that sets "before" against "after", figure by figure.

import { median } from './measure.mjs';

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
    /** Markdown: every figure measured for both builds, before / after / ratio, and whether it stays within 5 %. */
    comparison() {
      const rows = [];
      for (const { label, format, values } of figures.values()) {
        if (!values.before?.length || !values.after?.length) continue;
        const before = median(values.before);
        const after = median(values.after);
        const ratio = after / before;
        const verdict = ratio <= 1.05 ? 'within 5 %' : `**worse by ${((ratio - 1) * 100).toFixed(0)} %**`;
        rows.push(`| ${label} | ${format(before)} | ${format(after)} | ${ratio.toFixed(2)} | ${verdict} |`);
      }
      if (!rows.length) return '';
      return `| figure (median; lower is better) | before | after | after / before | |
| --- | --- | --- | --- | --- |
${rows.join('\n')}`;
    },
  };
}
