import type { BranchCounts } from '@cctrail/core/archive';
import { plural } from './diagnostic-output.js';

/**
 * Branch points by kind, as `stats` prints them: `1 rewind, 1 retry, 1 side command, 12 artefacts`.
 * Only rewinds and retries are forks that leave abandoned branches.
 */
export function forkKindsLine(b: BranchCounts): string {
  return [
    plural(b.rewinds, 'rewind'),
    `${b.retries} ${b.retries === 1 ? 'retry' : 'retries'}`,
    plural(b.sideCommands, 'side command'),
    plural(b.artefacts, 'artefact'),
  ].join(', ');
}
