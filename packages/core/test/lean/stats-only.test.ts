/**
 * `statsOnly` builds (what `cctrail stats` builds): every fixture and every session of the shared corpus gives
 * the same priced statistics digest and the same diagnostics as a structure-only build that computes everything,
 * and the parts no statistic reads are indeed not computed.
 */

import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { priceSession, statsDigest } from '../../src/archive/index.js';
import { buildSession, type Session, type SessionSource } from '../../src/index.js';
import { discover, sessionSource } from '../../src/node/index.js';
import { FIXTURES } from '../fixture-sessions.js';

const corpus = fileURLToPath(new URL('../../../../../shared/corpus/claude-projects', import.meta.url));

async function sourcesUnder(dir: string): Promise<SessionSource[]> {
  const found = await discover([dir]);
  const sources: SessionSource[] = [];
  for (const project of found.projects)
    for (const s of project.sessions) sources.push(await sessionSource(s, (p) => relative(dir, p)));
  return sources;
}

/** What a statistics run keeps of a session: its priced digest and its diagnostics. */
function statistics(session: Session) {
  priceSession(session);
  return { digest: statsDigest(session), diagnostics: session.diagnostics };
}

async function compareUnder(dir: string): Promise<{ sessions: number; titled: number }> {
  let sessions = 0;
  let titled = 0;
  for (const source of await sourcesUnder(dir)) {
    const everything = await buildSession(source, { content: false });
    const narrow = await buildSession(source, { content: false, statsOnly: true });
    expect(statistics(narrow), source.id).toEqual(statistics(everything));
    // What no statistic reads is not computed.
    expect(narrow.title, source.id).toBeNull();
    expect(narrow.recordTypes, source.id).toBeUndefined();
    expect(narrow.sessionIds, source.id).toEqual([]);
    sessions++;
    if (everything.title !== null) titled++;
  }
  return { sessions, titled };
}

describe('statsOnly builds', () => {
  it('give every fixture the statistics and diagnostics of a build of everything', async () => {
    const { sessions, titled } = await compareUnder(FIXTURES);
    expect(sessions).toBeGreaterThan(20);
    expect(titled).toBeGreaterThan(10);
  });

  it.skipIf(!existsSync(corpus))('give the shared corpus the same statistics and diagnostics', async () => {
    const { sessions } = await compareUnder(corpus);
    expect(sessions).toBeGreaterThan(10);
  });

  it('leave a full build as it was: titles, record types and tool calls attributed to their sidechains', async () => {
    const sources = await sourcesUnder(FIXTURES);
    let attributed = 0;
    for (const source of sources) {
      const session = await buildSession(source);
      expect(session.recordTypes, source.id).toBeDefined();
      attributed += session.tools.filter((t) => t.sidechain !== null).length;
    }
    expect(attributed).toBeGreaterThan(0);
  });
});
