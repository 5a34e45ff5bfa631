import { describe, expect, it } from 'vitest';
import { CliError } from '../src/command-line/errors.js';
import { inTimeRange, parseDate, readFilters } from '../src/input/input.js';
import { defaultProjectsFolder } from '../src/input/input-paths.js';

const NOW = Date.parse('2025-06-15T12:00:00.000Z');

describe('parseDate', () => {
  it('reads a day as the whole UTC day', () => {
    expect(new Date(parseDate('2025-01-31', 'since', NOW)).toISOString()).toBe('2025-01-31T00:00:00.000Z');
    expect(new Date(parseDate('2025-01-31', 'until', NOW)).toISOString()).toBe('2025-01-31T23:59:59.999Z');
  });

  it('reads ISO times and durations before now', () => {
    expect(parseDate('2025-01-31T10:20:30Z', 'since', NOW)).toBe(Date.parse('2025-01-31T10:20:30Z'));
    expect(parseDate('7d', 'since', NOW)).toBe(NOW - 7 * 86_400_000);
    expect(parseDate('12h', 'since', NOW)).toBe(NOW - 12 * 3_600_000);
    expect(parseDate('30m', 'since', NOW)).toBe(NOW - 30 * 60_000);
    expect(parseDate('2w', 'since', NOW)).toBe(NOW - 14 * 86_400_000);
  });

  it.each(['yesterday', '2025-13-45', '31/01/2025', '7 days', ''])('rejects %j as a usage error', (text) => {
    expect(() => parseDate(text, 'since', NOW)).toThrow(CliError);
  });
});

describe('readFilters', () => {
  it('collects repeated and comma-separated filters', () => {
    const filters = readFilters({ project: ['App', 'b,c'], session: ['4e27'], since: '2025-01-01' }, NOW);
    expect(filters).toEqual({
      projects: ['app', 'b', 'c'],
      sessions: ['4e27'],
      since: Date.parse('2025-01-01T00:00:00.000Z'),
      until: null,
    });
  });

  it('rejects --since after --until', () => {
    expect(() => readFilters({ since: '2025-02-01', until: '2025-01-01' }, NOW)).toThrow(/is after --until/);
  });
});

describe('inTimeRange', () => {
  const filters = {
    projects: [],
    sessions: [],
    since: Date.parse('2025-01-10'),
    until: Date.parse('2025-01-20'),
  };
  it.each([
    ['2025-01-01T00:00:00Z', '2025-01-11T00:00:00Z', true],
    ['2025-01-15T00:00:00Z', '2025-01-16T00:00:00Z', true],
    ['2025-01-19T00:00:00Z', '2025-02-01T00:00:00Z', true],
    ['2025-01-01T00:00:00Z', '2025-01-05T00:00:00Z', false],
    ['2025-01-25T00:00:00Z', '2025-01-26T00:00:00Z', false],
    [null, null, false],
  ])('a session from %s to %s overlaps: %s', (startedAt, endedAt, expected) => {
    expect(inTimeRange({ startedAt, endedAt }, filters)).toBe(expected);
  });

  it('keeps everything without time filters', () => {
    expect(inTimeRange({ startedAt: null, endedAt: null }, { ...filters, since: null, until: null })).toBe(
      true,
    );
  });
});

describe('defaultProjectsFolder', () => {
  it('prefers CLAUDE_CONFIG_DIR, then HOME', () => {
    expect(defaultProjectsFolder({ CLAUDE_CONFIG_DIR: '/c', HOME: '/h' })).toBe('/c/projects');
    expect(defaultProjectsFolder({ HOME: '/h' })).toBe('/h/.claude/projects');
  });
});
