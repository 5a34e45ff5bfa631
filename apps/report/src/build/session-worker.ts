import { parentPort, workerData } from 'node:worker_threads';
import { loadHighlighter } from '../views/markdown/highlight.js';
import { processSession, type SessionJob } from './session-pass.js';

/** Worker thread of `runSessionPass`: reads its share of sessions, once each, and caches what pages need. */
const { jobs, cacheDir } = workerData as { jobs: SessionJob[]; cacheDir: string };
await loadHighlighter();
parentPort?.postMessage({ done: jobs.map((job) => processSession(job, cacheDir)) });
