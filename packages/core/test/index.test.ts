import { expect, it } from 'vitest';
import * as core from '../src/index.js';

it('exposes exactly the documented API', () => {
  expect(Object.keys(core).sort()).toEqual([
    'DIAGNOSTICS',
    'SCHEMA_VERSION',
    'activePath',
    'addUsage',
    'archiveStats',
    'buildSession',
    'discover',
    'emptyUsage',
    'fileSource',
    'markDuplicates',
    'readLines',
    'sessionSource',
    'sessionStats',
    'usageAcross',
  ]);
});
