import type { UnreadSession } from '@cctrail/report';
import type { Io } from '../command-line/command.js';
import { plural } from '../terminal/diagnostic-output.js';
import { printable, styleFor } from '../terminal/terminal.js';

/**
 * Tells on stderr which sessions a report shows without their transcript (a session too large to read, a
 * file the archive could not give back): one line each, its files and why, so that a reader need not find
 * their pages to learn it.
 *
 * @param unread The sessions the report builder could not read.
 * @param io Where to write.
 */
export function printUnread(unread: readonly UnreadSession[], io: Io): void {
  if (unread.length === 0) return;
  const style = styleFor(io.stderr, io.env);
  io.stderr.write(
    `${style.yellow(`${plural(unread.length, 'session')} shown without ${unread.length === 1 ? 'its transcript' : 'their transcripts'}:`)}\n`,
  );
  for (const s of unread) {
    const files = s.sources.length > 0 ? s.sources.join(', ') : `${s.project}/${s.id}`;
    io.stderr.write(`  ${printable(files)}: ${printable(s.reasons.join('; '))}\n`);
  }
}
