import { describe, expect, it } from 'vitest';
import { redactText } from '../src/privacy/redact.js';

// #31's `wrapped-token` rule: a token a terminal cut over two lines is redacted whole, and nothing else is taken.
const GHP = `ghp_${'A1b2C3d4E5'.repeat(3)}f6G7h8`;

describe('the wrapped-token rule', () => {
  it('redacts both parts of a token cut at the end of a line', () => {
    const { text } = redactText(`token: ${GHP.slice(0, 20)}\n${GHP.slice(20)}\nnext line`);
    expect(text).not.toContain(GHP.slice(0, 20));
    expect(text).not.toContain(GHP.slice(20));
    expect(text).toContain('\nnext line');
  });

  it('leaves the next line of a whole token alone: the timestamp of a log line', () => {
    expect(GHP).toHaveLength(40);
    const { text } = redactText(
      `2026-04-21T08:02:00Z DEBUG leaked: ${GHP}\n2026-04-21T08:02:01Z INFO GET /api 200`,
    );
    expect(text).not.toContain(GHP);
    expect(text).toContain('\n2026-04-21T08:02:01Z INFO GET /api 200');
  });

  it('leaves the next line of a whole token alone: a word with letters and digits', () => {
    const { text } = redactText(`export GH_TOKEN=${GHP}\nv2build3 --release`);
    expect(text).not.toContain(GHP);
    expect(text).toContain('\nv2build3 --release');
  });

  it('does not take a date for the rest of a cut token', () => {
    const { text } = redactText(`sk-ant-api03-${'x1Y2'.repeat(5)}\n2026-04-21T08:02:01Z deploy done`);
    expect(text).toContain('2026-04-21T08:02:01Z deploy done');
  });
});
