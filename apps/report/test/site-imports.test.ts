import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../src/build/files.js';
import { siteServer } from '../src/build/site-server.js';

/**
 * The site's bundle holds what its pages import. A rebuild loads the report's views (to render the transcripts
 * of the changed sessions) and then the site's bundle (to draw their pages): what both held would be loaded
 * twice, so the pages import none of the transcript's renderers, which hold Markdown and the highlighter.
 */
describe("the site's bundle", () => {
  it('holds neither Markdown, the highlighter nor the transcript renderer', {
    timeout: 300_000,
  }, async () => {
    const server = dirname((await siteServer()).entry);
    const modules = filesUnder(server, new Set()).filter((rel) => rel.endsWith('.mjs'));
    expect(modules.length).toBeGreaterThan(0);
    const held = modules.filter((rel) =>
      /\bmicromark|@shikijs|createHighlighter|markdown-it|\bunified\(|function renderTranscript\b/.test(
        readFileSync(join(server, rel), 'utf8'),
      ),
    );
    expect(held).toEqual([]);
  });
});
