// The differences between 8ce2fd6's outputs and this tree's that are intended, reviewed one by one
// (docs/identical-8ce2fd6.md gives each group's counts, an example and its reason). `pnpm check:identical --ref
// 8ce2fd6` removes exactly these and fails on anything else. A group rewrites one side only where the change is
// one-sided (a field added or dropped), so a value that changed in a field both sides have is never hidden.

import { SEARCH_LAYOUT_GROUPS, searchDocs } from './search-files.mjs';

/** Whether a parsed JSON value is a plain object. */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A session document (a session file, or a session's line of the NDJSON stream): it has entries. */
const isSession = (value) => isObject(value) && Array.isArray(value.entries);

/** `value` without the keys `names` (a copy; the key order of the others is kept). */
function without(value, names) {
  if (!isObject(value) || !names.some((name) => name in value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !names.includes(key)));
}

/** `value` with `rewrite` applied to each item of its array `key`, when it has one. */
function eachOf(value, key, rewrite) {
  if (!isObject(value) || !Array.isArray(value[key])) return value;
  return { ...value, [key]: value[key].map((item, at) => rewrite(item, at)) };
}

/** Lines of `text` matching `pattern` left out. */
const dropLines = (text, pattern) =>
  text
    .split('\n')
    .filter((line) => !pattern.test(line))
    .join('\n');

const EXPORTS = ['export', 'export-ndjson', 'export-redact', 'export-ndjson-redact'];
const ANY_JSON = /^(<stdout>|index\.json|sessions\/.*\.json)$/;

/** @type {import('./expected.mjs').Group[]} */
export const GROUPS = [
  {
    id: 'schema-version',
    why: 'schemaVersion 2 → 3 (#30, the archive keeps its sources, fee1597) → 4 (#27 item 1, c5367ec)',
    files: ANY_JSON,
    json: (value, side) =>
      side === 'ref' && isObject(value) && value.schemaVersion === 2 ? { ...value, schemaVersion: 4 } : value,
  },
  {
    id: 'duplicate-of-in-index-only',
    why: "#27 item 1 (c5367ec): a session file no longer holds duplicateOf; index.json's is unchanged",
    steps: EXPORTS,
    files: /^(<stdout>|sessions\/.*\.json)$/,
    json: (value, side) => (side === 'ref' && isSession(value) ? without(value, ['duplicateOf']) : value),
  },
  {
    id: 'stats-counts-reported-runs',
    why:
      '#28 (a420459, wip-reader): stats --json counts a run reported by its spawn once in every total, as the ' +
      "report does: new `tokens` on sessions and totals and `cost.reportedBySpawn`; the run's `tokens` and " +
      "`cost`, its session's, its agent type's and the totals' cost hold the reported figures (taken back out " +
      "here from the new side's own `reported` and `reportedBySpawn`, before the groups that drop those)",
    steps: ['stats'],
    files: /^<stdout>$/,
    json: (value, side) => {
      if (side !== 'new' || !isObject(value)) return value;
      const less = (cost, usd) =>
        isObject(cost) && usd ? { ...cost, usd: Number((cost.usd - usd).toFixed(10)) } : cost;
      const run = (sidechain) =>
        isObject(sidechain?.reported)
          ? { ...sidechain, tokens: 0, cost: less(sidechain.cost, sidechain.reported.cost?.usd) }
          : sidechain;
      let next = eachOf(value, 'sessions', (session) => {
        const runs = eachOf(without(session, ['tokens']), 'sidechains', run);
        return { ...runs, cost: less(runs.cost, session.reportedBySpawn?.cost?.usd) };
      });
      next = eachOf(next, 'agents', (agent) =>
        isObject(agent.reportedBySpawn)
          ? {
              ...agent,
              tokens: agent.tokens - agent.reportedBySpawn.tokens,
              cost: less(agent.cost, agent.reportedBySpawn.cost?.usd),
            }
          : agent,
      );
      if (isObject(next.totals)) {
        const totals = without(next.totals, ['tokens']);
        next = {
          ...next,
          totals: { ...totals, cost: less(totals.cost, next.totals.reportedBySpawn?.cost?.usd) },
        };
      }
      if (isObject(next.cost)) {
        const cost = without(next.cost, ['reportedBySpawn']);
        next = { ...next, cost: { ...cost, total: less(cost.total, next.cost.reportedBySpawn?.usd) } };
      }
      return next;
    },
  },
  {
    id: 'sidechain-reported-by-spawn',
    why:
      "#28 (f603f5a): a sub-agent run's figures as its spawn's result reports them, `sidechains[].reported`, " +
      'an optional field (sessions, NDJSON, stats sessions[])',
    files: ANY_JSON,
    json: (value, side) => {
      if (side !== 'new') return value;
      const sidechains = (session) => eachOf(session, 'sidechains', (run) => without(run, ['reported']));
      if (isSession(value)) return sidechains(value);
      return eachOf(value, 'sessions', sidechains);
    },
  },
  {
    id: 'stats-reported-by-spawn',
    why:
      '#28 (f603f5a, eabc2fe): stats --json adds `reportedBySpawn` (sessions, agent types, totals) and ' +
      '`agents[].withoutTranscript`; an agent type with runs without a transcript takes its median of entries ' +
      'over the runs that have one',
    steps: ['stats'],
    files: /^<stdout>$/,
    json: (value, side, other) => {
      if (!isObject(value)) return value;
      if (side === 'ref') {
        // The median of entries of the agent types that have runs without a transcript is the new side's.
        const missing = new Map(
          (other?.agents ?? []).filter((a) => a.withoutTranscript > 0).map((a) => [a.agentType, a]),
        );
        return eachOf(value, 'agents', (agent) =>
          missing.has(agent.agentType)
            ? { ...agent, medianEntries: missing.get(agent.agentType).medianEntries }
            : agent,
        );
      }
      let next = eachOf(value, 'sessions', (session) => without(session, ['reportedBySpawn']));
      next = eachOf(next, 'agents', (agent) => without(agent, ['reportedBySpawn', 'withoutTranscript']));
      return isObject(next.totals) ? { ...next, totals: without(next.totals, ['reportedBySpawn']) } : next;
    },
  },
  {
    id: 'archive-sources',
    why:
      '#30 (fee1597): an export keeps every transcript under sources/ (gzip) with manifest.json, and says ' +
      '"Sources kept: …" (not with --redact, which keeps none)',
    steps: ['export', 'export-redact'],
    files: /^(manifest\.json|sources\/.*|<stderr>)$/,
    onlyIn: 'new',
    text: (text, side) => (side === 'new' ? dropLines(text, /^Sources kept: \d+ files? changed/) : text),
  },
  {
    id: 'redacted-by-rule',
    why:
      '#31 (4555d91): the count of secrets redacted is followed by the rules that found them, and the export ' +
      'state remembers them per session (`byRule`)',
    files: /^(<stderr>|\.cctrail-state\.json)$/,
    text: (text, side) =>
      side === 'new' ? text.replace(/(\d+ secrets? redacted) \([^)\n]*\)/g, '$1') : text,
    json: (value, side) =>
      side === 'new' && isObject(value?.sessions)
        ? {
            ...value,
            sessions: Object.fromEntries(
              Object.entries(value.sessions).map(([k, v]) => [k, without(v, ['byRule'])]),
            ),
          }
        : value,
  },
  {
    id: 'retention-told',
    why:
      "#30 hook (f1d1812): report's summary says how long Claude Code keeps transcripts and the edit that keeps " +
      'more (the pinned HOME has no settings: 30 days, the default)',
    steps: ['report'],
    files: /^<stderr>$/,
    text: (text, side) =>
      side === 'new' ? dropLines(text, /^Claude Code keeps \d+ days of transcripts/) : text,
  },
];

/** The inline theme script of 8ce2fd6's pages, which ae53894 moved to `_cctrail/theme.js`. */
const INLINE_THEME =
  "<script>(function(){try{var t=localStorage.getItem('cctrail-theme');if(t==='dark'||t==='light')" +
  "document.documentElement.setAttribute('data-theme',t);}catch(e){}})();</script>";

/**
 * Report pages by kind, each redrawn by the reader's changes since 8ce2fd6 (listed in the doc). The search page
 * is not one: it differs only by the CSP and theme script, so any other change to it fails; nor is an agent page
 * without a run its spawn reported (they are identical but for the CSP).
 */
const PAGE_KINDS = [
  ['page-index', /^index\.html$/, 'the index'],
  ['page-session', /^s\/.*\.html$/, "sessions' and sub-agents' pages"],
  ['page-conversation', /^c\/.*\.html$/, "conversations' pages"],
  ['page-agents', /^agents\/.*\.html$/, 'the agents overview and agent types', /transcript (?:is )?missing/],
];

GROUPS.push(
  {
    id: 'report-output-list',
    why: '#27 harden (1f1d14d): a report lists the files it wrote in .cctrail-report.json, to remove only those',
    steps: ['report'],
    files: /^\.cctrail-report\.json$/,
    onlyIn: 'new',
  },
  {
    id: 'short-branches-on-alternatives',
    why:
      "#31 extremes (b2d055b): a short abandoned branch is shown on its session's pages of alternatives " +
      '(`branches/`, linked from the session page), no longer on a page of its own (`branch/N/`)',
    steps: ['report'],
    files: /^s\/.*\/branch\/\d+\/index\.html$/,
    onlyIn: 'ref',
  },
  {
    id: 'report-nojekyll',
    why: '59f20d0: a report writes .nojekyll, so that GitHub Pages publishing a branch keeps _cctrail/',
    steps: ['report'],
    files: /^\.nojekyll$/,
    onlyIn: 'new',
  },
  {
    id: 'csp-no-inline-script',
    why:
      "#27 harden (ae53894): pages load the theme from _cctrail/theme.js and their CSP drops 'unsafe-inline' " +
      'from script-src',
    steps: ['report'],
    files: /(^_cctrail\/theme\.js|\.html)$/,
    onlyIn: 'new',
    text: (text, side) =>
      side === 'ref'
        ? text
            .replace("script-src 'self' 'unsafe-inline';", "script-src 'self';")
            .replace(INLINE_THEME, (_inline) => {
              const depth = /<link rel="stylesheet" href="((?:\.\.\/)*)_cctrail\/style\.css">/.exec(text);
              return `<script src="${depth ? depth[1] : ''}_cctrail/theme.js"></script>`;
            })
        : text,
  },
  {
    id: 'transcript-pages-by-cards',
    why:
      '#28 reader (839692c): a transcript is cut into pages between turns, 150 cards a page (was by records): ' +
      "fewer pages of a long session, the report's count of pages, and the page a search result opens",
    steps: ['report'],
    files: /^(s\/.*\/p\d+\/index\.html|<stderr>|_cctrail\/search\/d\d+\.js)$/,
    onlyIn: 'either',
    text: (text) => {
      if (text.startsWith('window.CCTRAIL_SEARCH_DOCS(') || text.startsWith('search docs ')) {
        const found = searchDocs(text);
        if (!found) return text;
        found.docs.s = found.docs.s.map(([session]) => [session, []]);
        found.docs.d = found.docs.d.map(([chunkSession, _page, ...rest]) => [chunkSession, 0, ...rest]);
        return `search docs ${found.chunk}: ${JSON.stringify(found.docs)}\n`;
      }
      return text.replace(/^(Report of \d+ sessions?), \d+ pages?;/m, '$1, N pages;');
    },
  },
  {
    id: 'search-snippets-240',
    why:
      '#28 search (00cdf48): an entry keeps 240 characters for its search snippet (was 90); compared decoded, ' +
      "the new snippet cut to the old one's length must give the old one",
    steps: ['report'],
    files: /^_cctrail\/search\/d\d+\.js$/,
    text: (text, side, other) => {
      const mine = searchDocs(text);
      const theirs = searchDocs(other);
      if (!mine || !theirs) return text;
      if (side === 'new') {
        mine.docs.d = mine.docs.d.map((doc, at) => {
          const old = theirs.docs.d[at];
          const same = old && old.slice(0, 3).join('\n') === doc.slice(0, 3).join('\n');
          return same && doc[3].startsWith(old[3]) ? [...doc.slice(0, 3), old[3]] : doc;
        });
      }
      return `search docs ${mine.chunk}: ${JSON.stringify(mine.docs)}\n`;
    },
  },
  ...SEARCH_LAYOUT_GROUPS,
  {
    id: 'browser-code',
    why:
      '#27 item 3 (e1e546d): the page scripts compiled from TypeScript and the stylesheet made of parts, with the ' +
      "reader's and search's changes of #28 (cards, charts, search landing on the match)",
    steps: ['report'],
    files: /^_cctrail\/(app|search|search-match)\.js$|^_cctrail\/style\.css$/,
    anyBytes: true,
  },
  ...PAGE_KINDS.map(([id, files, what, newHas]) => ({
    id,
    why: `#28 reader (see the doc): ${what}`,
    steps: ['report'],
    files,
    anyBytes: true,
    newHas,
  })),
);
