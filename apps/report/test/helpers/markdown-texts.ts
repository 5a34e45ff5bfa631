import { renderMarkdownWith } from '../../src/views/markdown/markdown.js';

/** What the full markdown pipeline renders (no fast path, no memo): what every fast path must give. */
export const full = (s: string): string => renderMarkdownWith(s, false).value;

/** A deterministic random number generator (the same texts on every run). */
export function seeded(start: number): () => number {
  let seed = start;
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}
