import type { Io } from '../command-line/command.js';

/** Text styles; identity functions when colors are off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
}

const plain: Style = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  yellow: (t) => t,
  green: (t) => t,
  cyan: (t) => t,
};

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const ansi: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  green: sgr(32, 39),
  cyan: sgr(36, 39),
};

/**
 * Colors for a stream: only when it is a terminal and `NO_COLOR` is unset or empty (https://no-color.org).
 *
 * @param stream The stream the text goes to.
 * @param env The environment (for `NO_COLOR`).
 */
export function styleFor(stream: Io['stdout'], env: NodeJS.ProcessEnv): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return stream.isTTY === true && !noColor ? ansi : plain;
}

/** Visible width of a string: ANSI color codes do not count. */
function visibleLength(text: string): number {
  return text.replace(/\u001b\[[0-9;]*m/g, '').length;
}

/** Column alignment for `table`. */
export type Align = 'left' | 'right';

/**
 * Renders rows as an aligned text table with a header line.
 *
 * @param header Column titles.
 * @param rows Cells, already formatted (may contain colors).
 * @param align Alignment per column; numbers read best right-aligned.
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
): string {
  const widths = header.map((title, column) =>
    Math.max(visibleLength(title), ...rows.map((row) => visibleLength(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const pad = ' '.repeat(Math.max(0, (widths[column] ?? 0) - visibleLength(cell)));
        return align[column] === 'right' ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Formats an integer with thin grouping: `12 345`. */
export function formatCount(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** Formats a token count compactly: `950`, `12.3k`, `4.56M`. */
export function formatTokens(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)}k`;
  if (value < 1_000_000_000) return `${(value / 1_000_000).toFixed(2)}M`;
  return `${(value / 1_000_000_000).toFixed(2)}G`;
}

/** Formats a share in [0, 1] as a percentage. */
export function formatShare(value: number): string {
  return `${(value * 100).toFixed(value > 0 && value < 0.1 ? 1 : 0)}%`;
}

/**
 * Makes text from a transcript safe to print on a terminal: control characters (which could move the
 * cursor or change colors) and bidirectional controls (which reorder the text around them) are shown as
 * `\u001b`-style escapes.
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
