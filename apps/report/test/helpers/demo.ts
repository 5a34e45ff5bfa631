/**
 * Hand-made sessions matching core's model (schemaVersion 2), for unit tests and the end-to-end build.
 * `demoSession()` has every feature: a rewind, a sub-agent, a compaction with a re-read, tool errors,
 * an image and hostile content.
 */

export { summaryOf, writeArchive } from './archive-folder.js';
export { demoSession } from './demo-session.js';
export { entry, HOSTILE_LABEL, linearSession, usage } from './session-parts.js';
