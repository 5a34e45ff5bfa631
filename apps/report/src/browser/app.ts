import { markFound, revealTargets } from './entry-target.js';
import { flowcharts, redrawCharts } from './flowchart.js';
import { commitLinks, quickSearch, tooltips } from './page-links.js';
import { sortableTables } from './sortable-tables.js';
import { themeToggle } from './theme-toggle.js';

/**
 * The page script `_cctrail/app.js` of every page: the theme button, sortable tables, tooltips, the header's
 * search, entries a link or search result names, commit links and the flowcharts (the search page has its
 * own, `search.js`). A classic script: no module syntax, no network.
 */
themeToggle(redrawCharts);
sortableTables();
tooltips();
quickSearch();
revealTargets();
markFound();
commitLinks();
flowcharts();
document.documentElement.setAttribute('data-ready', String(Math.round(performance.now())));
