// Writes src/archive/anthropic-prices.json: Anthropic's models and prices from the pinned @pydantic/genai-prices,
// so that cctrail prices with that table without loading the whole package (every provider's data) in every
// thread, and the day that version was published (what cctrail shows as the table's date, asked of the npm
// registry). Run it after changing the pinned version (`pnpm --filter @cctrail/core prices`); a test checks the
// snapshot equals what `priceSnapshot` makes of the installed table and that cctrail's prices equal its `calcPrice`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The snapshot of a version of the table.
 * @param manifest the installed package's package.json
 * @param models its Anthropic models
 * @param published the registry's publication times by version (`npm view <name> time --json`)
 */
export function priceSnapshot(manifest, models, published) {
  const time = published[manifest.version];
  if (typeof time !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(time))
    throw new Error(`no publication time for ${manifest.name} ${manifest.version}`);
  return {
    name: manifest.name,
    version: manifest.version,
    date: time.slice(0, 10),
    models: models.map(({ id, match, prices }) => ({ id, match, prices })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { findProvider } = await import('@pydantic/genai-prices');
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(
    readFileSync(
      require.resolve('@pydantic/genai-prices').replace(/dist[/\\]index\.c?js$/, 'package.json'),
      'utf8',
    ),
  );
  const published = JSON.parse(
    execFileSync('npm', ['view', `${manifest.name}@${manifest.version}`, 'time', '--json'], {
      encoding: 'utf8',
    }),
  );
  const snapshot = priceSnapshot(manifest, findProvider({ providerId: 'anthropic' }).models, published);
  const file = new URL('../src/archive/anthropic-prices.json', import.meta.url);
  writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`);
  console.log(`${snapshot.models.length} models of ${manifest.name} ${manifest.version} (${snapshot.date})`);
}
