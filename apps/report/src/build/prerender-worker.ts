import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { loadHighlighter } from '../views/highlight.js';
import type { SiteManifest } from './manifest.js';
import { prerenderSessions } from './prerender.js';

/** Worker thread of `buildReport`: renders the fragments of its share of sessions into the cache. */
const { manifestFile, keys } = workerData as { manifestFile: string; keys: string[] };
await loadHighlighter();
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as SiteManifest;
const pages = prerenderSessions(manifest, keys);
parentPort?.postMessage({ pages });
