import { expect, it } from 'vitest';
import * as core from '../src/index.js';
import * as node from '../src/node/index.js';

it('exposes exactly the documented API', () => {
  expect(Object.keys(core).sort()).toEqual([
    'CHARS_PER_TOKEN',
    'DIAGNOSTICS',
    'FILE_START',
    'PRICE_TABLE',
    'READ_TOOLS',
    'SCHEMA_VERSION',
    'activeEntries',
    'activePath',
    'addCost',
    'addUsage',
    'ancestors',
    'archiveStats',
    'branchEntries',
    'buildSession',
    'checkResume',
    'childrenOf',
    'combineStats',
    'contextTokens',
    'conversationTotals',
    'costDiffers',
    'costTotals',
    'emptyCost',
    'emptyUsage',
    'findConversations',
    'findDuplicates',
    'forkClass',
    'forkCounts',
    'isRealFork',
    'linkTeammates',
    'pointAfterLines',
    'priceSession',
    'readLines',
    'readOn',
    'reportedCost',
    'reportedRuns',
    'rereadsAfterCompactions',
    'responseCost',
    'responseCosts',
    'responseUsages',
    'sessionCost',
    'sessionDuplicates',
    'sessionJson',
    'sessionStats',
    'sessionTitle',
    'sidechainEntries',
    'statsDigest',
    'subtree',
    'toolCallsIn',
    'totalTokens',
    'totalUsage',
    'usageAcross',
    'utcDay',
  ]);
});

it('exposes exactly the documented Node.js adapters at @cctrail/core/node', () => {
  expect(Object.keys(node).sort()).toEqual(['discover', 'fileSource', 'sessionSource']);
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
