import {
  createCssVariablesTheme,
  createHighlighterCoreSync,
  type HighlighterCore,
  type LanguageRegistration,
  type RegexEngine,
} from 'shiki/core';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
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
import { onigWasm } from './onig-wasm.js';

/**
 * Syntax highlighting with shiki: one highlighter per thread, a fixed list of languages, the Oniguruma regex
 * engine (TextMate's own, as WebAssembly: it compiles a grammar's expressions faster than the JavaScript engine
 * translates them, and its output on every language was compared with that engine's) and one CSS-variables
 * theme, so code is tokenized once and the stylesheet gives the light and dark palettes (two themes would
 * tokenize twice). Unknown languages and large code stay plain. A grammar is registered the first time its
 * language is highlighted (with the grammars of ours it embeds), and the same code in the same language is
 * highlighted once per thread.
 */

/**
 * The grammars of the languages highlighted (a name or alias, as the fence writes it after `ALIASES`), imported
 * one by one (not shiki's bundle of every language), so that a bundle of the report ships these and no other.
 * Anything else is shown as plain text.
 */
const GRAMMARS: Readonly<Record<string, LanguageRegistration[]>> = {
  ts: typescript,
  tsx,
  js: javascript,
  jsx,
  json,
  bash: shellscript,
  shell: shellscript,
  python,
  diff,
  markdown,
  html,
  css,
  yaml,
  rust,
  go,
  sql,
};

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

/**
 * Characters of code whose highlighted trees a thread keeps; past it the trees are dropped and the count starts
 * again. Continued sessions repeat their history, so the same blocks come back from page to page.
 */
const REMEMBERED_CHARS = 200_000;

let loading: Promise<RegexEngine> | null = null;
/** The regex engine, once loaded: highlighting is on. */
let engine: RegexEngine | null = null;
let highlighter: HighlighterCore | null = null;
/** The names of the grammars registered in `highlighter` (shiki's `name`, not our aliases). */
const registered = new Set<string>();
const remembered = new Map<string, unknown>();
let rememberedChars = 0;

/**
 * Loads the regex engine once per thread, which turns highlighting on. The highlighter is made at the first
 * code block to highlight, and each grammar registered the first time its language comes, so a thread pays
 * only for the languages it meets.
 */
export async function loadHighlighter(): Promise<void> {
  loading ??= createOnigurumaEngine(onigWasm());
  engine = await loading;
}

/** The thread's highlighter, made once. */
function shared(regexes: RegexEngine): HighlighterCore {
  highlighter ??= createHighlighterCoreSync({
    themes: [THEME],
    langs: [],
    engine: regexes,
  });
  return highlighter;
}

/**
 * Registers a language's grammars, after those of ours they embed (a Markdown fence, an HTML `<script>`), so
 * that a grammar sees the same languages as when every grammar is registered up front.
 */
function register(core: HighlighterCore, grammars: LanguageRegistration[]): void {
  const pending = grammars.filter((g) => !registered.has(g.name));
  if (pending.length === 0) return;
  for (const g of pending) registered.add(g.name);
  for (const g of pending)
    for (const name of [...(g.embeddedLangs ?? []), ...(g.embeddedLangsLazy ?? [])]) {
      const embedded = BY_NAME.get(name);
      if (embedded) register(core, embedded);
    }
  core.loadLanguageSync(pending);
}

/** Our grammars by shiki's name of each. */
const BY_NAME = new Map(Object.values(GRAMMARS).flatMap((gs) => gs.map((g) => [g.name, gs] as const)));

/** Maps a fence's language to a key of `GRAMMARS`, or null. */
function resolveLanguage(lang: string): string | null {
  const l = lang.toLowerCase().trim();
  const resolved = (Object.hasOwn(ALIASES, l) ? ALIASES[l] : undefined) ?? l;
  return Object.hasOwn(GRAMMARS, resolved) ? resolved : null;
}

/**
 * Highlights code to a hast `<pre>` element, or returns null (highlighting not loaded, unknown language, too
 * large): the caller then keeps its plain, escaped rendering. The same code in the same language gives the same
 * tree, shared between callers: it must not be changed.
 */
export function highlightToHast(code: string, lang: string): unknown {
  const resolved = resolveLanguage(lang);
  if (!engine || !resolved || code.length > HIGHLIGHT_LIMIT) return null;
  const key = `${resolved}\n${code}`;
  const hit = remembered.get(key);
  if (hit !== undefined) return hit;
  const core = shared(engine);
  register(core, GRAMMARS[resolved] ?? []);
  const root = core.codeToHast(code, {
    lang: resolved,
    theme: 'cctrail',
    tokenizeTimeLimit: TOKENIZE_TIME_LIMIT,
  });
  const tree = root.children[0] ?? null;
  if (rememberedChars + code.length > REMEMBERED_CHARS) {
    remembered.clear();
    rememberedChars = 0;
  }
  remembered.set(key, tree);
  rememberedChars += code.length;
  return tree;
}
