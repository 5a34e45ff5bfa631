import { parentPort, workerData } from 'node:worker_threads';
import { computePart, type PendingPart } from './manifest.js';

/** Worker thread of `buildReport`: reads its share of session files and caches their manifest parts. */
const { parts } = workerData as { parts: PendingPart[] };
for (const part of parts) computePart(part);
parentPort?.postMessage({ parts: parts.length });
