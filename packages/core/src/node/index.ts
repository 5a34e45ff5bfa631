/**
 * @cctrail/core/node — the Node.js adapters beside core: transcript files as byte streams, and the discovery of
 * projects, sessions and agent files under `~/.claude/projects`. The main entry (`@cctrail/core`) does no I/O.
 *
 * @example
 * ```ts
 * import { buildSession } from '@cctrail/core';
 * import { discover, sessionSource } from '@cctrail/core/node';
 * const { projects } = await discover(['~/.claude/projects']);
 * const session = await buildSession(await sessionSource(projects[0].sessions[0]));
 * ```
 */
export { type DiscoveredProject, type DiscoveredSession, type Discovery, discover } from './discover.js';
export { type FileSourceOptions, fileSource, sessionSource } from './node-source.js';
export { isRunning } from './processes.js';
