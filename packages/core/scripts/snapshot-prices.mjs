// Writes src/archive/anthropic-prices.json: Anthropic's models and prices from the pinned @pydantic/genai-prices,
// so that cctrail prices with that table without loading the whole package (every provider's data) in every
// thread. Run it after changing the pinned version (`pnpm --filter @cctrail/core prices`); a test checks the
// snapshot equals the installed table and that cctrail's prices equal its `calcPrice`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { findProvider } from '@pydantic/genai-prices';

const require = createRequire(import.meta.url);
const manifest = JSON.parse(
  readFileSync(
    require.resolve('@pydantic/genai-prices').replace(/dist[/\\]index\.c?js$/, 'package.json'),
    'utf8',
  ),
);
const provider = findProvider({ providerId: 'anthropic' });
const snapshot = {
  name: manifest.name,
  version: manifest.version,
  models: provider.models.map(({ id, match, prices }) => ({ id, match, prices })),
};
const file = new URL('../src/archive/anthropic-prices.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`);
console.log(`${snapshot.models.length} models of ${manifest.name} ${manifest.version}`);
