import { expect, it } from 'vitest';
import { ownValue, setOwn } from '../src/own-keys.js';

it('sets any name as an own, enumerable key, `__proto__` included, without touching the prototype', () => {
  const record: Record<string, number> = {};
  for (const [i, key] of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a'].entries())
    expect(setOwn(record, key, i)).toBe(i);
  expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  expect(Object.keys(record)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a']);
  expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  expect(ownValue(record, '__proto__')).toBe(0);
  expect(ownValue(record, 'toString')).toBe(2);
  setOwn(record, 'toString', 7);
  expect(ownValue(record, 'toString')).toBe(7);
  expect(ownValue({}, 'constructor')).toBeUndefined();
});
