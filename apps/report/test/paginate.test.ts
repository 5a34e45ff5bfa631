import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, pageOf, pagerWindow, paginate } from '../src/views/paginate.js';

describe('paginate', () => {
  it('splits items into pages of PAGE_SIZE', () => {
    expect(PAGE_SIZE).toBe(200);
    expect(paginate(450)).toEqual([
      { number: 1, start: 0, end: 200 },
      { number: 2, start: 200, end: 400 },
      { number: 3, start: 400, end: 450 },
    ]);
  });
  it('always has one page', () => {
    expect(paginate(0)).toEqual([{ number: 1, start: 0, end: 0 }]);
  });
  it('finds the page of an item', () => {
    expect(pageOf(0)).toBe(1);
    expect(pageOf(199)).toBe(1);
    expect(pageOf(200)).toBe(2);
    expect(pageOf(5, 2)).toBe(3);
  });
  it('shows first, last and neighbours with gaps', () => {
    expect(pagerWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pagerWindow(10, 20)).toEqual([1, 0, 8, 9, 10, 11, 12, 0, 20]);
  });
});
