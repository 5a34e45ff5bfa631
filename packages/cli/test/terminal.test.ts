import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatShare,
  formatTokens,
  printable,
  styleFor,
  table,
} from '../src/terminal/terminal.js';

const tty = { isTTY: true } as unknown as NodeJS.WriteStream;
const pipe = { isTTY: false } as unknown as NodeJS.WriteStream;

describe('styleFor', () => {
  it('colors only a terminal without NO_COLOR', () => {
    expect(styleFor(tty, {}).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(styleFor(tty, { NO_COLOR: '1' }).red('x')).toBe('x');
    expect(styleFor(pipe, {}).red('x')).toBe('x');
  });
});

describe('table', () => {
  it('aligns columns, ignoring color codes', () => {
    const red = styleFor(tty, {}).red;
    const text = table(
      ['name', 'n'],
      [
        ['a', '1'],
        [red('long name'), '100'],
      ],
      ['left', 'right'],
    );
    expect(text.replace(/\u001b\[\d+m/g, '')).toMatchInlineSnapshot(`
      "name         n
      ─────────  ───
      a            1
      long name  100"
    `);
  });
});

describe('number formats', () => {
  it('formats counts, tokens and shares', () => {
    expect(formatCount(1234567)).toBe('1 234 567');
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1234)).toBe('1.23k');
    expect(formatTokens(123456)).toBe('123.5k');
    expect(formatTokens(4_560_000)).toBe('4.56M');
    expect(formatShare(0.25)).toBe('25%');
    expect(formatShare(0.0123)).toBe('1.2%');
  });
});

describe('printable', () => {
  it('escapes control characters from transcripts', () => {
    expect(printable('ok\u001b[31mred\u0007\n')).toBe('ok\\u001b[31mred\\u0007\\u000a');
    expect(printable('plain ünïcode')).toBe('plain ünïcode');
  });

  it('escapes bidirectional controls, which reorder what a terminal shows', () => {
    expect(printable('if (admin) {\u202E } \u2066// check\u2069 {\u061C')).toBe(
      'if (admin) {\\u202e } \\u2066// check\\u2069 {\\u061c',
    );
  });
});
