import type { Mermaid } from 'mermaid';
import type { SearchItem } from '../views/search/search.js';
import type { Matcher } from './search-match.js';

/** How the search page finds the files of a query (`build/search-files.ts`). */
export interface SearchMeta {
  /** Entries in the index. */
  n: number;
  /** Entries a file of entries. */
  k: number;
  /** The first term of each term file. */
  t: string[];
  /** The first entry of each session with entries, in the order of the entries' numbers. */
  b: number[];
  /** The name of each of those sessions' files of entries (`<name>-<n>.js`). */
  f: string[];
}

/**
 * A file of entries (`d<n>.js`): its sessions ([link of the session, links of its pages with entries here])
 * and its entries ([session, page, anchor, "who: first words"]).
 */
export interface EntriesPart {
  s: [string, string[]][];
  d: [number, number, string, string][];
}

/** A search item, with its text in lower case once made (`h`). */
export interface PageSearchItem extends SearchItem {
  h?: string;
}

/** The page's window with what the report's scripts and data files put on it. */
export interface ReportWindow extends Window {
  /** The search page's matcher (`search-match.js`). */
  CCTRAIL_MATCH?: Matcher;
  /** Sessions and sub-agents (`search-index.js`). */
  CCTRAIL_SEARCH?: PageSearchItem[];
  /** The transcript index's meta (`search-index.js`; null without one). */
  CCTRAIL_SEARCH_FILES?: SearchMeta | null;
  /** Called by each term file (`t<n>.js`) with its text. */
  CCTRAIL_SEARCH_TERMS?: (n: number, text: string) => void;
  /** Called by each file of entries (`<name>-<n>.js`) with its name and its JSON. */
  CCTRAIL_SEARCH_DOCS?: (name: string, text: string) => void;
  /** Mermaid, once its script has loaded. */
  mermaid?: Mermaid;
}

/** The page's window. */
export const page = window as ReportWindow;
