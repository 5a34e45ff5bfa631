import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { tempFolder } from './temp.js';

/** Debian's chromium: the browser tests run only where it is installed. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Starts headless chromium with a fresh profile (removed after the test file) and the flags that keep it from calling home (no QUIC,
 * background networking, component updates or sync), so a test can assert that pages make no outside request.
 *
 * @param viewport The window size (chromium's default when omitted).
 */
export async function launchChromium(viewport?: { width: number; height: number }): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(tempFolder('cctrail-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    ...(viewport ? { viewport } : {}),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The `.html` files below a folder (dot-folders skipped), sorted. */
export function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop() as string;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.html')) out.push(p);
    }
  }
  return out.sort();
}
