import { describe, expect, it } from 'vitest';
import { utcDay } from '../../src/archive/session-cost.js';

import { instantOf, timestampOrNull, utcDayOf } from '../../src/read/timestamps.js';

describe('timestamps', () => {
  it('takes the day of a UTC time from its date, as Date.parse reads the date (days past a month roll over)', () => {
    expect(utcDayOf('2026-02-10T09:14:04.820Z')).toBe('2026-02-10');
    expect(utcDayOf('2026-02-10T23:59:59.999Z')).toBe('2026-02-10');
    expect(utcDayOf('2026-02-30T10:00:00Z')).toBe('2026-03-02');
    expect(utcDayOf('2024-02-29T10:00Z')).toBe('2024-02-29');
    expect(utcDayOf('0000-01-01T00:00:00Z')).toBe('0000-01-01');
    expect(timestampOrNull('2026-02-30T10:00:00Z')).toBe('2026-02-30T10:00:00Z');
  });

  it('knows no day for a date that names none, whatever the time of day', () => {
    for (const date of ['2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32'])
      for (const time of ['T00:00:00Z', 'T12:30Z', 'T23:59:59.5Z']) {
        expect(utcDayOf(`${date}${time}`)).toBeNull();
        expect(timestampOrNull(`${date}${time}`)).toBeNull();
      }
    expect(utcDay('2026-01-32T12:00:00Z')).toBe('unknown');
  });

  it('reads times that can move the day in full: 24:00, offsets, long fractions', () => {
    expect(utcDayOf('2026-01-01T24:00:00Z')).toBe('2026-01-02');
    expect(timestampOrNull('2026-01-01T24:00:01Z')).toBeNull();
    expect(utcDayOf('2026-01-01T23:30:00-01:00')).toBe('2026-01-02');
    expect(utcDayOf('2026-01-01T00:30:00+01:00')).toBe('2025-12-31');
    expect(utcDayOf('2026-01-01T23:59:59.9999999Z')).toBe('2026-01-01');
    expect(timestampOrNull('2026-01-01T23:60:00Z')).toBeNull();
    expect(timestampOrNull('2026-01-01 10:00:00Z')).toBeNull();
    expect(timestampOrNull(1767225600000)).toBeNull();
  });
});

describe('instantOf', () => {
  it('is Date.parse for every shape of timestamp, in any order of dates', () => {
    const written = [
      '2026-02-10T09:14:04.820Z',
      '2026-02-10T23:59:59.999Z',
      '2026-02-11T00:00:00.000Z',
      '2026-02-30T10:00:00.000Z',
      '2026-02-29T12:30:00.001Z',
      '2026-13-01T00:00:00.000Z',
      '2026-00-10T00:00:00.000Z',
      '2026-02-10T24:00:00.000Z',
      '2026-02-10T09:60:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '2026-02-10T09:14:04Z',
      '2026-02-10T09:14:04.8Z',
      '2026-02-10T09:14:04.820+02:00',
      '2026-02-10T09:14:04.820123Z',
      '2026-02-10T09:14Z',
      '2026-02-1aT09:14:04.820Z',
      'not a timestamp',
      '',
    ];
    for (const timestamp of [...written, ...written.reverse()])
      expect([timestamp, instantOf(timestamp)]).toEqual([timestamp, Date.parse(timestamp)]);
  });
});
