// Screenshots of the report for its README, taken from the repository's fixtures: the index, a session page in
// the light and the dark theme, a conversation's page, an agent's page and a search result. Needs a build (`pnpm build`) and
// Debian's chromium (/usr/bin/chromium).
//
//   node scripts/screenshots/shoot.mjs [OUT_DIR]     (default: apps/report/docs/screenshots)

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
const out = resolve(process.argv[2] ?? join(root, 'apps/report/docs/screenshots'));
const work = mkdtempSync(join(tmpdir(), 'cctrail-shots-'));
const site = join(work, 'site');
const scenarios = ['subagents-meta', 'rewind', 'compaction', 'multi-project', 'conversations'];

execFileSync(
  process.execPath,
  [
    join(root, 'packages/cli/dist/bin.js'),
    'report',
    ...scenarios.map((s) => join(root, 'fixtures', s)),
    '-o',
    site,
    '--title',
    'cctrail fixtures',
    '--repo',
    'https://github.com/example/app',
  ],
  { env: { ...process.env, CCTRAIL_CACHE_DIR: join(work, 'cache') }, stdio: ['ignore', 'ignore', 'inherit'] },
);

/** The first session page of a project whose folder name holds `prefix`. */
function sessionPage(prefix) {
  const project = readdirSync(join(site, 's')).find((d) => d.includes(prefix));
  const session = readdirSync(join(site, 's', project))[0];
  return join(site, 's', project, session);
}

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
mkdirSync(out, { recursive: true });

async function shoot(name, file, { dark = false, query = '', wait = null, width = 1280, height = 860 } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme: dark ? 'dark' : 'light' });
  await page.goto(`${pathToFileURL(file).href}${query}`, { waitUntil: 'domcontentloaded' });
  if (wait) await page.waitForSelector(wait, { timeout: 60_000 });
  await page.screenshot({ path: join(out, `${name}.png`) });
  await page.close();
  console.log(`${name}.png`);
}

const session = sessionPage('subagents-meta');
const agent = join(session, 'agent', readdirSync(join(session, 'agent'))[0]);
// The conversation of the most files (the `conversations` fixture's first: compacted, resumed, copied).
const conversation = readdirSync(join(site, 'c'))
  .map((d) => join(site, 'c', d, 'index.html'))
  .map((file) => ({
    file,
    files: (readFileSync(file, 'utf8').match(/class="conversation-file"/g) ?? []).length,
  }))
  .sort((a, b) => b.files - a.files)[0].file;
try {
  await shoot('index', join(site, 'index.html'));
  await shoot('session-light', join(session, 'index.html'), { wait: '[data-graph] svg' });
  await shoot('session-dark', join(session, 'index.html'), { dark: true, wait: '[data-graph] svg' });
  await shoot('conversation', conversation, { wait: 'svg.conversation-chart' });
  await shoot('agent', join(agent, 'index.html'));
  await shoot('search', join(site, 'search', 'index.html'), {
    query: '?q=concatenated',
    wait: '#search-hits li',
  });
  await shoot('session-phone', join(session, 'index.html'), {
    width: 390,
    height: 844,
    wait: '[data-graph] svg',
  });
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
