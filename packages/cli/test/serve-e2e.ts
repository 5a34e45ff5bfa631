// What the end-to-end tests of `cctrail serve` and `cctrail report --watch` share: the binary, the fixture followed
// and the uuids of the entries appended to it, functions run in the page, and ways to watch files and stderr.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { FIXTURES } from './helpers.js';

export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const REPORT_BUILT = existsSync(new URL('../../../apps/report/dist/index.js', import.meta.url));
export const PROJECT = '-home-dev-agents-2026';
export const ID = '6c8678cc-6b37-40b9-8cff-e1e1df72cfc9';
export const SOURCE = join(FIXTURES, 'agents-2026', PROJECT);
export const PAGE = `s/home-dev-agents-2026/${ID}/`;
export const LINEAR = '88b9af8e-2314-4b66-9a90-221c50a7db10';
/** Uuids of the entries the live-drawing test appends: an answer in markdown, its tool call, the call's result. */
export const LIVE = [
  'f0000000-0000-4000-8000-000000000001',
  'f0000000-0000-4000-8000-000000000002',
  'f0000000-0000-4000-8000-000000000003',
];

/** Uuids of the entries the spawn test appends: a call that spawns an agent, its result, an answer; the agent's. */
export const SPAWN = [
  'f0000000-0000-4000-8000-000000000011',
  'f0000000-0000-4000-8000-000000000012',
  'f0000000-0000-4000-8000-000000000013',
  'f0000000-0000-4000-8000-000000000014',
];

/** The window as the page functions below use it (this package's TypeScript has no DOM types). */
interface PageWindow {
  scrollY: number;
  innerHeight: number;
  scrollTo(x: number, y: number): void;
  document: { documentElement: { scrollHeight: number } };
}

/** Page function: scrolls to the end of the page. */
export function scrollToEnd(): void {
  const w = globalThis as unknown as PageWindow;
  w.scrollTo(0, w.document.documentElement.scrollHeight);
}

/** Page function: scrolls to the top of the page. */
export function scrollToTop(): void {
  (globalThis as unknown as PageWindow).scrollTo(0, 0);
}

/** Each file of a folder (relative path) with its identity: a file written again, even with the same bytes, differs. */
export function fileStates(root: string): Map<string, string> {
  const states = new Map<string, string>();
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) stack.push(path);
      else {
        const { ino, ctimeMs, size } = statSync(join(root, path));
        states.set(path, `${ino}:${ctimeMs}:${size}`);
      }
    }
  }
  return states;
}

/** The files new or written again between two `fileStates`, sorted. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after]
    .filter(([path, state]) => before.get(path) !== state)
    .map(([path]) => path)
    .sort();
}

/** Page function: an element's HTML. */
export function outerHtml(element: unknown): string {
  return (element as { outerHTML: string }).outerHTML;
}

/** Page function: marks the page, so that a reload (a new window object) shows. */
export function keepMark(): void {
  (globalThis as unknown as { cctrailTestMark?: string }).cctrailTestMark = 'kept';
}

/** Page function: the mark, or undefined after a reload. */
export function readMark(): string | undefined {
  return (globalThis as unknown as { cctrailTestMark?: string }).cctrailTestMark;
}

/**
 * Page function: whether the window shows the end of the page (less than 100 CSS pixels below it). Waited for, not
 * read once: the page follows its end after the frame that added the entries, which a loaded machine delays.
 */
export function atEnd(): boolean {
  const w = globalThis as unknown as PageWindow;
  return w.document.documentElement.scrollHeight - (w.scrollY + w.innerHeight) < 100;
}
/** A child's stderr as it is written; `seen` resolves once it matches (the test's timeout bounds the wait). */
export function gatherStderr(child: ChildProcess): {
  readonly text: string;
  seen(text: RegExp): Promise<void>;
} {
  let text = '';
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  return {
    get text() {
      return text;
    },
    seen: (wanted) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!wanted.test(text)) return;
          child.stderr?.off('data', check);
          resolve();
        };
        child.stderr?.on('data', check);
        check();
      }),
  };
}

/** The address a started `cctrail serve` prints first; rejects when it exits before (with its stderr so far). */
export function servedAt(server: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (chunk) => {
      out += chunk;
      const line = /^(http:\/\/\S+)\n/m.exec(out);
      if (line?.[1]) resolve(line[1]);
    });
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr()}`)));
  });
}

/** Debian's chromium, headless, with its profile in `profile`. */
export async function launchChromium(profile: string): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}
