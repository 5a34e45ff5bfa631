import { createCssVariablesTheme, createHighlighter, type HighlighterGeneric } from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';

/**
 * Syntax highlighting with shiki: one highlighter per thread, a fixed list of languages, the JavaScript
 * regex engine (no WebAssembly) and one CSS-variables theme, so code is tokenized once and the stylesheet
 * gives the light and dark palettes (two themes would tokenize twice). Unknown languages and large code
 * stay plain.
 */

/** Languages highlighted; anything else is shown as plain text. */
const LANGUAGES = [
  'ts',
  'tsx',
  'js',
  'jsx',
  'json',
  'bash',
  'shell',
  'python',
  'diff',
  'markdown',
  'html',
  'css',
  'yaml',
  'rust',
  'go',
  'sql',
] as const;

/** Largest code block highlighted, in characters. */
const HIGHLIGHT_LIMIT = 20_000;

/**
 * Time allowed to tokenize one line, in milliseconds; past it the rest of the line and the state the next
 * lines start from are cut short. shiki's default (500 ms) is reached by the first line of a language in a
 * busy thread, where the grammar's expressions are compiled: the same code then came out highlighted
 * differently from one build to the next. This limit only stops pathological lines.
 */
const TOKENIZE_TIME_LIMIT = 10_000;

const ALIASES: Record<string, string> = {
  typescript: 'ts',
  javascript: 'js',
  sh: 'bash',
  zsh: 'bash',
  console: 'shell',
  py: 'python',
  md: 'markdown',
  yml: 'yaml',
  rs: 'rust',
  golang: 'go',
  patch: 'diff',
  htm: 'html',
  jsonl: 'json',
  mjs: 'js',
  cjs: 'js',
};

/** The theme: colours are `var(--shiki-…)` variables defined by the report's stylesheet. */
const THEME = createCssVariablesTheme({ name: 'cctrail', variablePrefix: '--shiki-', fontStyle: true });

// biome-ignore lint/suspicious/noExplicitAny: shiki's generic highlighter type is only used through codeToHast
let highlighter: HighlighterGeneric<any, any> | null = null;
// biome-ignore lint/suspicious/noExplicitAny: see above
let loading: Promise<HighlighterGeneric<any, any>> | null = null;

/** Creates the shared highlighter once; later calls return the same promise. */
export async function loadHighlighter(): Promise<void> {
  loading ??= createHighlighter({
    themes: [THEME],
    langs: [...LANGUAGES],
    engine: createJavaScriptRegexEngine(),
  });
  highlighter = await loading;
}

/** Maps a fence's language to one of `LANGUAGES`, or null. */
function resolveLanguage(lang: string): string | null {
  const l = lang.toLowerCase().trim();
  const resolved = ALIASES[l] ?? l;
  return (LANGUAGES as readonly string[]).includes(resolved) ? resolved : null;
}

/**
 * Highlights code to a hast `<pre>` element, or returns null (no highlighter loaded, unknown language, too
 * large): the caller then keeps its plain, escaped rendering.
 */
export function highlightToHast(code: string, lang: string): unknown {
  const resolved = resolveLanguage(lang);
  if (!highlighter || !resolved || code.length > HIGHLIGHT_LIMIT) return null;
  const root = highlighter.codeToHast(code, {
    lang: resolved,
    theme: 'cctrail',
    tokenizeTimeLimit: TOKENIZE_TIME_LIMIT,
  });
  return root.children[0] ?? null;
}
