import type { ArchiveIndex } from '@cctrail/core/archive';
import type { Selection } from '../input/input.js';
import { shortenHome } from '../privacy/home-paths.js';
import type { Privacy } from '../privacy/transform.js';
import { sessionKey } from './archive-input.js';
import { type CarriedLine, carriedLines } from './carried.js';
import { missingFrom } from './keep.js';
import type { PrunedSession } from './prune.js';

/** What `carryOver` needs. */
export interface CarryContext {
  dir: string;
  /** The index before this run, and the new one (before the carried lines join it). */
  previous: ArchiveIndex | null;
  index: ArchiveIndex;
  /** Sessions `--prune` took out of the run. */
  pruned: readonly PrunedSession[];
  selection: Selection;
  privacy: Privacy;
}

/**
 * The lines of the previous index that the new one must carry: sessions the archive kept without sources that
 * this run neither read nor pruned, each marked `missing` when its transcripts were looked for and not found.
 * Sessions are matched as the index writes them (project slugs shortened with `--short-home`).
 *
 * @param context The run.
 */
export function carryOver(context: CarryContext): Promise<CarriedLine[]> {
  const { index, pruned, selection, privacy } = context;
  const slug = (project: string | null) => (privacy.shortHome ? shortenHome(project ?? '').text : project);
  const present = new Set([
    ...index.projects.flatMap((p) => p.sessions.map((s) => sessionKey(p.slug, s.id))),
    ...pruned.map((p) => sessionKey(slug(p.project), p.id)),
  ]);
  const found = new Set(
    [...(selection.found ?? [])].map((key) => {
      const [project = '', id = ''] = key.split('\u0000');
      return sessionKey(slug(project), id);
    }),
  );
  return carriedLines(context.dir, context.previous, present, (key, sources) =>
    missingFrom({ ...selection, found }, key, sources),
  );
}
