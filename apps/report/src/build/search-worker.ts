import { parentPort, workerData } from 'node:worker_threads';
import { signatureOf } from './page-writer.js';
import { planSearchFiles } from './search-pieces.js';
import type { SearchPlanned, SearchWorkerData } from './search-thread.js';
import { SiteWriter } from './site-writer.js';

/**
 * Worker thread of `SearchThread`: plans the files of the transcript index (`planSearchFiles`) and sends their names
 * and digests; then writes those it is told to write, which the build's writer has recorded, through a writer of
 * its own (`SiteWriter`: no link followed), keeps the index's state for the next build when told to, and says so.
 */
const { manifest, cacheDir, outDir, save } = workerData as SearchWorkerData;
const port = parentPort;
const plan = planSearchFiles(manifest, cacheDir);
const texts = new Map<string, () => string>();
const files: [string, string][] = [];
for (const f of plan.files) {
  texts.set(f.name, () => f.text);
  files.push([f.name, f.signature ?? signatureOf(f.text)]);
}
for (const f of plan.known) {
  texts.set(f.name, f.text);
  files.push([f.name, f.signature]);
}
const planned: SearchPlanned = { meta: plan.meta, files };
port?.postMessage(planned);
port?.once('message', (names: string[]) => {
  const site = new SiteWriter(outDir);
  for (const name of names) {
    const text = texts.get(name);
    if (text === undefined) throw new Error(`${name} is not a file of the search index`);
    site.write(name, text());
  }
  if (save) plan.save();
  port.postMessage(names.length);
});
