// The groups of differences with 8ce2fd6 in the search index's files, and how its files of entries are read
// (`expected-8ce2fd6.mjs`).

/**
 * The documents of a search docs file (`window.CCTRAIL_SEARCH_DOCS(n,'…')`): the JSON inside a single-quoted
 * script string, decoded; null when the text is not one.
 */
export function searchDocs(text) {
  const canonical = /^search docs (\d+): (.*)\n$/s.exec(text);
  if (canonical) return { chunk: Number(canonical[1]), docs: JSON.parse(canonical[2]) };
  const found = /^window\.CCTRAIL_SEARCH_DOCS\((\d+),'(.*)'\);?\n?$/s.exec(text);
  if (!found) return null;
  let json = '';
  for (let at = 0; at < found[2].length; at++) {
    const char = found[2][at];
    if (char === '\\') {
      const next = found[2][++at];
      json += next === "'" ? "'" : `\\${next}`;
    } else json += char === '"' ? '\\"' : char;
  }
  return { chunk: Number(found[1]), docs: JSON.parse(JSON.parse(`"${json}"`)) };
}

/** The files of entries of the search index, laid out by session since the fourth round of #26. */
export const SEARCH_LAYOUT_GROUPS = [
  {
    id: 'search-entries-per-session',
    why:
      "#26 rebuild (this round): the search index's files of entries hold one session each, named after its page " +
      "(`e<digest>-<n>.js`, were `d<n>.js` across sessions), so a rebuild rewrites only a changed session's; " +
      "what they hold is checked entry by entry by apps/report/test/search.test.ts and the browser's search tests",
    steps: ['report'],
    files: /^_cctrail\/search\/(d\d+|e[0-9a-f]+-\d+)\.js$/,
    onlyIn: 'either',
  },
  {
    id: 'search-meta-sessions',
    why: "#26 rebuild (this round): search-index.js gives each session's first entry and the name of its files",
    steps: ['report'],
    files: /^_cctrail\/search-index\.js$/,
    text: (text, side) => (side === 'new' ? text.replace(/,"b":\[[\d,]*\],"f":\[[^\]]*\]\}/, '}') : text),
  },
];
