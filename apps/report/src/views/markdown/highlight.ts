import { createCssVariablesTheme, createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import css from 'shiki/langs/css.mjs';
import diff from 'shiki/langs/diff.mjs';
import go from 'shiki/langs/go.mjs';
import html from 'shiki/langs/html.mjs';
import javascript from 'shiki/langs/javascript.mjs';
import json from 'shiki/langs/json.mjs';
import jsx from 'shiki/langs/jsx.mjs';
import markdown from 'shiki/langs/markdown.mjs';
import python from 'shiki/langs/python.mjs';
import rust from 'shiki/langs/rust.mjs';
import shellscript from 'shiki/langs/shellscript.mjs';
import sql from 'shiki/langs/sql.mjs';
import tsx from 'shiki/langs/tsx.mjs';
import typescript from 'shiki/langs/typescript.mjs';
import yaml from 'shiki/langs/yaml.mjs';

/**
 * Syntax highlighting with shiki: one highlighter per thread, a fixed list of languages, the JavaScript
 * regex engine (no WebAssembly) and one CSS-variables theme, so code is tokenized once and the stylesheet
 * gives the light and dark palettes (two themes would tokenize twice). Unknown languages and large code
 * stay plain.
 */

/**
 * The grammars of `LANGUAGES`, imported one by one (not shiki's bundle of every language), so that a bundle of
 * the report ships these and no other.
 */
const GRAMMARS = [
  typescript,
  tsx,
  javascript,
  jsx,
  json,
  shellscript,
  python,
  diff,
  markdown,
  html,
  css,
  yaml,
  rust,
  go,
  sql,
];

/** Languages highlighted (names or aliases of `GRAMMARS`); anything else is shown as plain text. */
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

let highlighter: HighlighterCore | null = null;
let loading: Promise<HighlighterCore> | null = null;

/** Creates the shared highlighter once; later calls return the same promise. */
export async function loadHighlighter(): Promise<void> {
  loading ??= createHighlighterCore({
    themes: [THEME],
    langs: GRAMMARS,
    engine: createJavaScriptRegexEngine(),
  });
  highlighter = await loading;
}

/** Maps a fence's language to one of `LANGUAGES`, or null. */
function resolveLanguage(lang: string): string | null {
  const l = lang.toLowerCase().trim();
  const resolved = (Object.hasOwn(ALIASES, l) ? ALIASES[l] : undefined) ?? l;
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
