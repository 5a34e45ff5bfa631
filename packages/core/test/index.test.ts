import { expect, it } from 'vitest';
import * as archive from '../src/archive/index.js';
import * as core from '../src/index.js';
import * as node from '../src/node/index.js';

it('exposes exactly the documented API: one session built, its model, queries and diagnostics', () => {
  expect(Object.keys(core).sort()).toEqual([
    'DIAGNOSTICS',
    'SCHEMA_VERSION',
    'activeEntries',
    'branchEntries',
    'buildSession',
    'checkResume',
    'childrenOf',
    'contextTokens',
    'emptyUsage',
    'forkClass',
    'pointAfterLines',
    'readOn',
    'rereadsAfterCompactions',
    'sessionTitle',
    'sidechainEntries',
    'toolCallsIn',
    'totalTokens',
  ]);
});

it('exposes what spans sessions at @cctrail/core/archive, and nothing of it at the main entry', () => {
  expect(Object.keys(archive).sort()).toEqual([
    'apiCost',
    'archiveStats',
    'combineStats',
    'costTotals',
    'findConversations',
    'findDuplicates',
    'linkTeammates',
    'priceSession',
    'reportedCost',
    'reportedRun',
    'responseCost',
    'responseCosts',
    'responseTotals',
    'runsOnce',
    'sessionCost',
    'sessionDuplicates',
    'sessionItems',
    'sessionJson',
    'sessionStats',
    'statsDigest',
    'withReported',
  ]);
  for (const name of Object.keys(archive)) expect(core).not.toHaveProperty(name);
});

it('exposes exactly the documented Node.js adapters at @cctrail/core/node', () => {
  expect(Object.keys(node).sort()).toEqual(['discover', 'fileSource', 'isRunning', 'sessionSource']);
});

it('documents every diagnostic code in the README', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const code of Object.keys(core.DIAGNOSTICS))
    expect(readme).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|`));
});

it('keeps the main entry free of Node.js: only src/node/ names a node: module', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const src = new URL('../src/', import.meta.url);
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(20);
  const naming = files.filter(
    (f) => !f.startsWith('node/') && /['"]node:/.test(readFileSync(new URL(f, src), 'utf8')),
  );
  expect(naming).toEqual([]);
});
