import { expect, it } from 'vitest';
import * as report from '../src/index.js';

it('pins the public API', () => {
  expect(Object.keys(report).sort()).toEqual(['buildReport', 'prepareSession']);
});
