import { queryTerms } from '../views/search/search-text.js';
import { best, entryPlace, fileRange, match, ranked, termLists } from './matcher.js';
import { marked, snippet } from './snippets.js';

/**
 * The page script `_cctrail/search-match.js`: how the search page finds and ranks entries and shows them
 * (no DOM), as `window.CCTRAIL_MATCH` for `search.js` (and the report's search benchmark). A query's words
 * are split as the index splits text (`views/search/search-text.ts`), postings read as they were written
 * (`views/search/search-codec.ts`).
 */
const matcher = {
  queryWords: queryTerms,
  fileRange,
  termLists,
  best,
  match,
  ranked,
  snippet,
  marked,
  entryPlace,
};

/** What the search page's matcher offers. */
export type Matcher = typeof matcher;

Object.assign(window, { CCTRAIL_MATCH: matcher });
