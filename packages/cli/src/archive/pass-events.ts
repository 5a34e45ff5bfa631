import { inTimeRange, type Selection } from '../input/input.js';
import type { Skeleton } from '../sessions/skeleton.js';
import type { Planned } from './plan.js';

/**
 * What an export tells its caller while it builds the sessions (`ExportOptions`): that the input holds
 * transcripts (`onPlanned`), and that the last sessions are being built (`onLastSessions`). Both are told through
 * the callback the pass calls with each skeleton it builds.
 */

/**
 * Calls `onPlanned` once, with the first skeleton that shows a transcript (a cached one at once).
 *
 * @returns What to tell of each skeleton built.
 */
export function onFirstTranscript(
  planned: readonly Planned[],
  onPlanned?: () => void,
): (skeleton: Skeleton) => void {
  let started = false;
  const found = (skeleton: Skeleton) => {
    if (started || skeleton.notATranscript) return;
    started = true;
    onPlanned?.();
  };
  for (const session of planned) if (session.skeleton) found(session.skeleton);
  return found;
}

/**
 * Calls `onLast` once, when as many sessions as are built at once are left to build (at once when there are no
 * more), with the number of sessions the pass writes (see `ExportOptions.onLastSessions`).
 *
 * @param found What to tell of each skeleton built.
 * @param atOnce How many sessions are built at once.
 * @returns `found`, counting the sessions built.
 */
export function onLastSessions(
  found: (skeleton: Skeleton) => void,
  planned: readonly Planned[],
  range: Pick<Selection['filters'], 'since' | 'until'>,
  atOnce: number,
  onLast?: (written: number) => void,
): (skeleton: Skeleton) => void {
  if (onLast === undefined) return found;
  // What the pass builds: a session's export when its file cannot stay (and it is within the time filters, when
  // known), else its skeleton when it is not cached.
  const exported = (p: Planned) =>
    p.reused === null && (p.skeleton === undefined || inTimeRange(p.skeleton.digest.stats, range));
  const written = planned.filter(exported).length;
  let left = planned.filter((p) => exported(p) || p.skeleton === undefined).length;
  let told = false;
  const tell = () => {
    if (told || left > atOnce) return;
    told = true;
    onLast(written);
  };
  tell();
  return (skeleton) => {
    found(skeleton);
    left--;
    tell();
  };
}
