// The reader's theme, before the page is drawn (no flash of the other theme): a classic script in <head>, so it
// runs from file:// too, and a file of its own, so the pages' CSP allows no inline script.
(function () {
  try {
    var t = localStorage.getItem('cctrail-theme');
    if (t === 'dark' || t === 'light') document.documentElement.setAttribute('data-theme', t);
  } catch (e) {}
})();
