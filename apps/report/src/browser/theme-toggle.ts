/** Whether the page is dark: the reader's choice (`data-theme`), else the system's. */
export function isDark(): boolean {
  const t = document.documentElement.getAttribute('data-theme');
  if (t) return t === 'dark';
  return !!window.matchMedia?.('(prefers-color-scheme: dark)').matches;
}

/**
 * The header's theme button: switches between light and dark, keeps the choice (read back by `theme.js`)
 * and calls `changed` after a switch.
 */
export function themeToggle(changed: () => void): void {
  const toggle = document.getElementById('theme-toggle');
  if (!toggle) return;
  toggle.setAttribute('aria-pressed', String(isDark()));
  toggle.addEventListener('click', () => {
    const next = isDark() ? 'light' : 'dark';
    document.documentElement.setAttribute('data-theme', next);
    toggle.setAttribute('aria-pressed', String(next === 'dark'));
    try {
      localStorage.setItem('cctrail-theme', next);
    } catch {
      // storage may be off for file://
    }
    changed();
  });
}
