import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildSession, type Session } from '@cctrail/core';
import { priceSession } from '@cctrail/core/archive';
import { discover, sessionSource } from '@cctrail/core/node';
import type { Page } from 'playwright-core';
import { buildReport } from '../../src/index.js';
import { sessionStory } from '../../src/views/flowchart/mermaid-story.js';
import { writeArchive } from './demo.js';
import { mainLeaves } from './lanes.js';
import { linkSessions } from './links.js';

/**
 * What the reading crawl (`reading-crawl.e2e.test.ts`) needs of an archive: its report built through the core
 * engine (conversations and teammates linked as an export links them), the sessions whose flowchart has more
 * lanes of turns than one, and a word of a transcript to search for; then what one page measures in chromium,
 * and which pages the index does not reach within two clicks.
 */

/** A built report of a projects folder. */
export interface CrawlSite {
  outDir: string;
  /** Sessions whose chart's leaves are not its forks + sub-agents + 1 (more than one lane of turns). */
  falseLanes: string[];
  /** A word of an assistant's answer, found only in transcripts' text (null when no session has one). */
  word: string | null;
}

/** A word of an assistant's text in the main thread, long enough to be rare in the archive. */
function answerWord(s: Session): string | null {
  for (const e of s.entries) {
    if (e.sidechain !== null || e.kind !== 'assistant') continue;
    for (const block of e.content) {
      if (block.type !== 'text') continue;
      const words = block.text.match(/\b[a-z]{9,14}\b/g) ?? [];
      if (words.length > 0) return words[0]!;
    }
  }
  return null;
}

/**
 * Builds the report of a `~/.claude/projects` folder into `tmp/site`, session by session.
 *
 * @param root The projects folder.
 * @param tmp A folder of the test's own.
 */
export async function buildCrawlSite(root: string, tmp: string): Promise<CrawlSite> {
  const found = await discover([root]);
  const projects: { id: string; cwd: string; sessions: Session[] }[] = [];
  const falseLanes: string[] = [];
  let word: string | null = null;
  for (const p of found.projects) {
    const list: Session[] = [];
    for (const s of p.sessions) {
      const session = await buildSession(await sessionSource(s, (f) => relative(root, f)));
      priceSession(session);
      const story = sessionStory(session);
      if (story.some((n) => n.kind === 'active') && mainLeaves(story) !== 1)
        falseLanes.push(`${session.id}: ${mainLeaves(story)} lanes of turns`);
      word ??= answerWord(session);
      list.push(session);
    }
    projects.push({ id: p.slug.replace(/[^\w-]/g, '_'), cwd: p.slug, sessions: list });
  }
  writeArchive(join(tmp, 'data'), projects, (index) => linkSessions(index, projects));
  const outDir = join(tmp, 'site');
  await buildReport({ dataDir: join(tmp, 'data'), outDir, base: '/', title: 'crawl', cacheDir: false });
  return { outDir, falseLanes, word };
}

/** What one page measures in the browser. */
export interface PageFacts {
  overflow: number;
  spills: string[];
  longestQuietRun: number;
  questionMarks: string[];
  /** Joined timeline charts on the page (a conversation page has one). */
  conversationCharts: number;
}

/** Measures the page open in `page`. */
export function pageFacts(page: Page): Promise<PageFacts> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const spills: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    // a figure's value, a table box, a heading: its content must fit its box
    for (const el of Array.from(
      document.querySelectorAll('.figure, .table-wrap > table, h1, h2, .crumbs, .lede'),
    ))
      if (!el.matches('.visually-hidden') && el.scrollWidth > el.clientWidth + 1) spills.push(name(el));
    for (const box of Array.from(document.querySelectorAll('.table-wrap'))) {
      const table = box.querySelector('table');
      // wide tables scroll inside their box on a phone, never on a desktop
      if (table && window.innerWidth >= 1000 && table.getBoundingClientRect().width > box.clientWidth + 1)
        spills.push(name(box));
    }
    // a path in a table is never squeezed to a few characters a line
    for (const cell of Array.from(document.querySelectorAll('td.path')))
      if (cell.getBoundingClientRect().width < 100) spills.push(`${name(cell)} squeezed`);
    let longest = 0;
    for (const t of Array.from(document.querySelectorAll('.transcript'))) {
      let run = 0;
      for (const row of Array.from(t.children)) {
        if (row.classList.contains('anchor-only')) continue;
        const message = row.tagName === 'ARTICLE' || row.matches('.compaction, .fork');
        run = message ? 0 : run + 1;
        longest = Math.max(longest, run);
      }
    }
    const marks = Array.from(document.querySelectorAll('.compaction, .tl-marker > title'))
      .map((el) => el.textContent ?? '')
      .filter((text) => text.includes('?'));
    return {
      overflow: doc.scrollWidth - window.innerWidth,
      spills,
      longestQuietRun: longest,
      questionMarks: marks,
      conversationCharts: document.querySelectorAll('svg.conversation-chart').length,
    };
  });
}

/** The pages a built page links to (files of the site, without query or fragment). */
function linksOf(file: string, outDir: string): string[] {
  const out = new Set<string>();
  for (const m of readFileSync(file, 'utf8').matchAll(/<a\b[^>]*?\shref="([^"#?]*)[^"]*"/g)) {
    const href = m[1]!.replace(/&amp;/g, '&');
    if (href === '' || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
    const target = href.startsWith('/') ? join(outDir, href) : resolve(dirname(file), href);
    const page = target.endsWith('.html') ? target : join(target, 'index.html');
    if (existsSync(page)) out.add(page);
  }
  return [...out];
}

/**
 * The pages of a site that its index does not reach within two clicks.
 *
 * @param outDir The site.
 * @param pages Its pages.
 */
export function beyondTwoClicks(outDir: string, pages: readonly string[]): string[] {
  const index = join(outDir, 'index.html');
  const reached = new Set([index]);
  let frontier = [index];
  for (let click = 0; click < 2; click++) {
    const next: string[] = [];
    for (const page of frontier)
      for (const link of linksOf(page, outDir))
        if (!reached.has(link)) {
          reached.add(link);
          next.push(link);
        }
    frontier = next;
  }
  return pages.filter((p) => !reached.has(p));
}
