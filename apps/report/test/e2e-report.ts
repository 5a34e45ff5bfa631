import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../src/index.js';
import type { Session } from '../src/views/model.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { fixtureProjects } from './helpers/fixtures.js';
import { tempFolder } from './helpers/temp.js';

/** The report the end-to-end tests read: its sessions, its archive's folder and its own, its index page and its number of pages. */
export interface E2eReport {
  sessions: Session[];
  dataDir: string;
  outDir: string;
  indexHtml: string;
  pages: number;
}

/**
 * Builds the report of the end-to-end tests (`e2e.test.ts`) under the base `/repo/`: every fixture (through the
 * core engine), a demo session, a long linear one, and a project whose one session is a file that is not JSON.
 */
export async function buildE2eReport(): Promise<E2eReport> {
  const tmp = tempFolder('cctrail-report-e2e-');
  const dataDir = join(tmp, 'data');
  const outDir = join(tmp, 'site');
  const projects = await fixtureProjects();
  const demo = demoSession();
  const long = linearSession('long-linear', 450);
  const sessions = [...projects.flatMap((p) => p.sessions), demo, long];
  writeArchive(
    dataDir,
    [...projects, { id: 'demo', cwd: '/home/dev/shop', sessions: [demo, long] }],
    (index) => {
      index.projects.push({
        slug: 'broken',
        id: 'broken',
        cwd: '/home/dev/broken',
        sessions: [
          {
            ...(index.projects[0]?.sessions[0] as NonNullable<(typeof index.projects)[0]['sessions'][0]>),
            id: 'not-json',
            file: 'broken/not-json.json',
            title: 'A file that is not a session',
          },
        ],
      });
    },
  );
  mkdirSync(join(dataDir, 'broken'), { recursive: true });
  writeFileSync(join(dataDir, 'broken', 'not-json.json'), '{"this is": not json');
  const built = await buildReport({ dataDir, outDir, base: '/repo/', title: 'cctrail e2e' });
  return { sessions, dataDir, outDir, indexHtml: built.indexHtml, pages: built.pages };
}
