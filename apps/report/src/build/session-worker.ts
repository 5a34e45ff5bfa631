import { parentPort, workerData } from 'node:worker_threads';
import { loadHighlighter } from '../views/markdown/highlight.js';
import { processSession, type SessionJob } from './session-pass.js';

/** Worker thread of `runSessionPass`: reads its share of sessions, once each, and caches what pages need. */
const { jobs, cacheDir } = workerData as { jobs: SessionJob[]; cacheDir: string };
await loadHighlighter();
const done = [];
for (const job of jobs) done.push(await processSession(job, cacheDir));
parentPort?.postMessage({ done });
