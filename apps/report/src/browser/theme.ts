/**
 * The page script `_cctrail/theme.js`: the reader's theme, before the page is drawn (no flash of the other
 * theme). A classic script in `<head>`, so it runs from file:// too, and a file of its own, so the pages' CSP
 * allows no inline script.
 */
let theme: string | null = null;
try {
  theme = localStorage.getItem('cctrail-theme');
} catch {
  // storage refused (file:// in some browsers): the default theme
}
if (theme === 'dark' || theme === 'light') document.documentElement.setAttribute('data-theme', theme);
