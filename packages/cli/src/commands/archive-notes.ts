import type { ExportOutcome } from '../archive/export-archive.js';
import type { Io } from '../command-line/command.js';
import { plural } from '../terminal/diagnostic-output.js';

/**
 * What an export into an archive tells on stderr beside its counts: the sessions `--prune` removed, one a line,
 * the sessions the archive keeps without their transcripts, and what keeping the sources did.
 *
 * @param result What the export did.
 * @param dir The archive folder.
 * @param io Where to write.
 */
export function archiveNotes(result: ExportOutcome, dir: string, io: Io): void {
  for (const session of result.pruned) {
    const seen = session.lastSeen ? `, last seen ${session.lastSeen.slice(0, 10)}` : '';
    io.stderr.write(
      `Pruned ${session.project}/${session.id}${session.title ? ` "${session.title}"` : ''}${seen}: ${session.files.join(', ')}\n`,
    );
  }
  const { missing, kept } = result.archived;
  if (missing > 0)
    io.stderr.write(
      `${plural(missing, 'session')} only in the archive: ${missing === 1 ? 'its transcripts were' : 'their transcripts were'} deleted (\`cctrail export --prune\` removes ${missing === 1 ? 'it' : 'them'}).\n`,
    );
  if (kept > 0)
    io.stderr.write(
      `${plural(kept, 'session')} kept as ${kept === 1 ? 'it was' : 'they were'} (outside this run's input or filters).\n`,
    );
  const sources = result.sources;
  if (sources !== null) {
    const changed = sources.new + sources.appended + sources.rewritten;
    const parts = [
      `${sources.new} new`,
      `${sources.appended} grown`,
      ...(sources.rewritten > 0
        ? [`${sources.rewritten} rewritten or shrunk (earlier bytes kept under ${dir}/superseded)`]
        : []),
      ...(sources.failed > 0 ? [`${sources.failed} unreadable`] : []),
    ];
    io.stderr.write(`Sources kept: ${plural(changed, 'file')} changed (${parts.join(', ')}).\n`);
  }
}
