import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, NameAllocator, sanitizeId } from '../src/files/sanitize.js';

describe('sanitizeId', () => {
  it('keeps ordinary ids as they are', () => {
    expect(sanitizeId('4e27c414-a885-46a0-b5c8-d58e1417377d')).toBe('4e27c414-a885-46a0-b5c8-d58e1417377d');
    expect(sanitizeId('-Users-dain-workspace-claude-code-log-sample')).toBe(
      '-Users-dain-workspace-claude-code-log-sample',
    );
    expect(sanitizeId('agent.v2_x')).toBe('agent.v2_x');
  });

  it.each([
    '../../etc/passwd',
    '..',
    '.',
    '.hidden',
    '/absolute/path',
    'a\\b',
    'C:\\Windows',
    'nul',
    'CON.json',
    '',
    'a/../../b',
    'x..y',
    '\u0000evil',
    'ünïcödé',
  ])('turns %j into one safe path segment', (id) => {
    const name = sanitizeId(id);
    expect(name).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
    expect(name).not.toContain('..');
    expect(name).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
    expect(name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
  });

  it('keeps different ids apart when they sanitize alike', () => {
    expect(sanitizeId('a/b')).not.toBe(sanitizeId('a:b'));
    expect(sanitizeId('a/b')).not.toBe('a_b');
  });

  it('caps long ids and keeps them distinct', () => {
    const a = sanitizeId('x'.repeat(300));
    const b = sanitizeId(`${'x'.repeat(299)}y`);
    expect(a.length).toBe(MAX_NAME_LENGTH);
    expect(a).not.toBe(b);
  });
});

describe('NameAllocator', () => {
  it('gives ids differing only in case different names (case-insensitive file systems)', () => {
    const names = new NameAllocator();
    const upper = names.nameFor('Session-ABC');
    const lower = names.nameFor('session-abc');
    expect(upper).toBe('Session-ABC');
    expect(lower.toLowerCase()).not.toBe(upper.toLowerCase());
    expect(lower).toMatch(/^session-abc-[0-9a-f]{8}$/);
  });

  it('returns the same name for the same id', () => {
    const names = new NameAllocator();
    expect(names.nameFor('a')).toBe(names.nameFor('a'));
  });

  it('never hands out a reserved name', () => {
    const names = new NameAllocator(['index']);
    expect(names.nameFor('INDEX')).not.toBe('INDEX');
  });

  it('disambiguates an id that sanitizes to a name already taken', () => {
    const names = new NameAllocator();
    const first = names.nameFor('a_b');
    const second = names.nameFor('a/b');
    expect(first).toBe('a_b');
    expect(second).not.toBe(first);
  });
});
