import { join } from 'node:path';
import { rereadsAfterCompactions } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { timelineSeries } from '../src/views/charts/timeline.js';
import { sessionMermaid } from '../src/views/flowchart/mermaid.js';
import type { Session } from '../src/views/model.js';
import { indexView } from '../src/views/site/index-view.js';
import { demoSession, writeArchive } from './helpers/demo.js';
import { type FixtureProject, SCENARIOS, scenarioProjects } from './helpers/fixtures.js';
import { siteOf } from './helpers/site.js';
import { tempFolder } from './helpers/temp.js';

/**
 * The report's view models of every fixture scenario (and of the hand-made demo session), compared with the
 * files in `test/__snapshots__/views/<scenario>/`: the Mermaid text of each session, its timeline series and
 * the index view of the scenario's archive. `vitest -u` writes them again after an intended change.
 */

const tmp = tempFolder('cctrail-view-models-');

/** Sessions in a stable order: by project, then by id. */
function sessionsOf(projects: readonly FixtureProject[]): Session[] {
  return projects.flatMap((p) => [...p.sessions].sort((a, b) => a.id.localeCompare(b.id)));
}

const table: { name: string; projects: () => Promise<FixtureProject[]> }[] = [
  ...SCENARIOS.map((name) => ({ name, projects: () => scenarioProjects(name) })),
  { name: 'demo', projects: async () => [{ id: 'demo', cwd: '/home/dev/shop', sessions: [demoSession()] }] },
];

describe.each(table)('view models of $name', ({ name, projects }) => {
  const snapshot = (file: string) => join(import.meta.dirname, '__snapshots__', 'views', name, file);

  it('draws each session as Mermaid text', async () => {
    const text = sessionsOf(await projects())
      .map((s) => {
        const g = sessionMermaid(s);
        return `%% session ${s.id}: ${g.entries} entries\n%% ${g.notes.join(' ')}\n${g.text}\n`;
      })
      .join('\n');
    await expect(text).toMatchFileSnapshot(snapshot('mermaid.txt'));
  });

  it('gives each session its timeline series', async () => {
    const series = Object.fromEntries(
      sessionsOf(await projects()).map((s) => [s.id, timelineSeries(s, rereadsAfterCompactions(s))]),
    );
    await expect(`${JSON.stringify(series, null, 2)}\n`).toMatchFileSnapshot(snapshot('timeline.json'));
  });

  it('shapes the index of its archive', async () => {
    const dir = join(tmp, name);
    writeArchive(join(dir, 'data'), await projects());
    const view = indexView(await siteOf(join(dir, 'data'), join(dir, 'cache')));
    await expect(`${JSON.stringify(view, null, 2)}\n`).toMatchFileSnapshot(snapshot('index.json'));
  });
});
