import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { createCssVariablesTheme, createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import css from 'shiki/langs/css.mjs';
import diff from 'shiki/langs/diff.mjs';
import go from 'shiki/langs/go.mjs';
import htmlGrammar from 'shiki/langs/html.mjs';
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
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { shikiHtml } from '../src/views/markdown/markdown-html.js';

const CORPUS = resolve(import.meta.dirname, '../../../../shared/corpus/claude-projects');

/**
 * Code in every language the report highlights, for tests comparing highlighters: each sample uses the
 * constructs its grammar treats specially (strings, comments, templates, embedded languages, hostile markup).
 */
const SAMPLES: Readonly<Record<string, string>> = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code to highlight, not a template
  ts: 'import { a, type B } from "./x.js";\n/** doc @param x */\nexport async function f<T extends B>(x: T): Promise<`${string}!`> {\n  const re = /a+(?<n>b)\\//giu; // </code></pre><script>alert(1)</script>\n  return `${x as unknown as string}!` satisfies string;\n}\nenum E { A = 1 << 2 }\nclass C<T> implements I { #p?: T; @dec() m(): void {} }\n',
  tsx: 'export const App = ({ n }: { n: number }) => <div className="a" onClick={() => n++}>{n > 1 && <b>x</b>}</div>;\nconst g = <T,>(x: T) => x;\n',
  js: "'use strict';\nconst { a = 1, ...rest } = require('x');\nlabel: for (let i = 0; i < 10; i++) { if (i % 2) continue label; }\nexport default function* gen() { yield* [1n, 0x1f, 1e-3, .5]; }\nconst r = a?.b ?? c?.[d]; // <b>&amp;</b>\n",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code to highlight, not a template
  jsx: 'function A() {\n  return <>\n    <Foo.Bar {...props} key="k" data-x={`t${1}`} />\n    {/* comment */}\n  </>;\n}\n',
  json: '{\n  "a": [1, -2.5e3, true, false, null],\n  "b": {"c": "\\u0041\\n<script>"},\n  // not json\n  "d": }\n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code to highlight, not a template
  bash: '#!/usr/bin/env bash\nset -euo pipefail\nfor f in "$@"; do echo "${f%.txt}" | grep -E \'^a\' >> out.log 2>&1; done\ncat <<EOF\nhere $HOME `date`\nEOF\nx=$(( 1 + 2 )); [[ -n "$x" ]] && exit 0\n',
  shell: '$ npm install --save-dev shiki\n$ ls -la ~/.claude | wc -l\n> echo "</pre>"\n',
  python:
    '@dataclass\nclass A(B, metaclass=M):\n    """Doc."""\n    x: int = 0\n    async def f(self, *a, **k) -> "A":\n        return f"{self.x!r:>10} {{}}" + rb"\\d" + r\'\\n\'  # comment\nlambda y: [i ** 2 for i in range(10) if i % 2]\n',
  diff: 'diff --git a/x.ts b/x.ts\nindex 1..2 100644\n--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@ function f\n-const a = 1;\n+const a = 2;\n context <b>\n\\ No newline at end of file\n',
  markdown:
    '# Title *em* **strong**\n\n> quote `code`\n\n- [ ] task [link](https://x.y "t") ![img](a.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst a: number = 1;\n```\n\n```tsx\n<A b={1} />\n```\n\n```js\nlet b = `t`;\n```\n\n```jsx\n<A />\n```\n\n```json\n{"a": 1}\n```\n\n```bash\necho "$x"\n```\n\n```sh\nls\n```\n\n```shell\n$ ls\n```\n\n```python\ndef f(): pass\n```\n\n```diff\n-a\n+b\n```\n\n```html\n<p class="x">y</p>\n```\n\n```css\na { color: red; }\n```\n\n```yaml\na: [1, 2]\n```\n\n```rust\nfn main() {}\n```\n\n```go\nfunc main() {}\n```\n\n```sql\nSELECT 1;\n```\n\n```markdown\n# nested\n```\n\n<div>raw <script>x</script></div>\n',
  html: '<!doctype html>\n<html lang="en"><head><style>\n  body > p::before { content: "<\\/style>"; color: #fff !important; }\n</style>\n<script type="module">\n  import x from "./x.js"; if (a < b && c > d) document.write("</scr" + "ipt>");\n</script></head>\n<body onload="init(1)"><!-- comment --><p data-x=\'1\'>a &amp; b &lt;</p></body></html>\n',
  css: '@import url("x.css");\n@media (max-width: 600px) { .a:hover > b::after, #id[data-x~="y"] { margin: -1.5em calc(100% - 2px) !important; } }\n:root { --c: rgb(0 0 0 / 50%); }\n@keyframes k { from { opacity: 0 } }\n/* </style> */\n',
  yaml: '%YAML 1.2\n---\nanchors:\n  base: &b { a: 1, "b": \'two\' }\n  derived:\n    <<: *b\n    list: [1, 2.5, ~, true]\nblock: |\n  line <b>\n  line 2\nfolded: >-\n  text\n# comment\n...\n',
  rust: "#[derive(Debug)]\npub struct S<'a, T: Clone> { r: &'a mut T }\nimpl<T> Drop for S<'_, T> { fn drop(&mut self) { println!(\"{:?} {}\", r#\"raw\"#, b'x'); } }\nmacro_rules! m { ($e:expr) => { $e + 1u8 }; }\n",
  go: 'package main\n\nimport (\n\t"fmt"\n)\n\ntype S[T any] struct{ x T `json:"x"` }\n\nfunc (s *S[T]) M(ch chan<- int) (err error) {\n\tdefer func() { recover() }()\n\tgo fmt.Println(\'a\', 0x1F, 1_000, `raw\nstring`)\n\treturn nil\n}\n',
  sql: "WITH t AS (SELECT id, COUNT(*) AS n FROM users u LEFT JOIN orders o ON o.uid = u.id WHERE u.name LIKE '%<b>%' GROUP BY id)\nINSERT INTO x (a, b) VALUES (1, 'it''s'); -- comment\n/* block */ CREATE TABLE y (id INTEGER PRIMARY KEY);\n",
};

/** Fence names that `highlight.ts` reads as one of the samples' languages. */
const ALIASES: Readonly<Record<string, string>> = {
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

type Highlight = (code: string, lang: string) => unknown;

/**
 * The reference: the report's highlighter before grammars were registered at first use and before it took
 * the Oniguruma engine: shiki's JavaScript regex engine, every grammar registered up front, tokenizing every time.
 */
let reference: HighlighterCore;
beforeAll(async () => {
  reference = await createHighlighterCore({
    themes: [createCssVariablesTheme({ name: 'cctrail', variablePrefix: '--shiki-', fontStyle: true })],
    langs: [
      typescript,
      tsx,
      javascript,
      jsx,
      json,
      shellscript,
      python,
      diff,
      markdown,
      htmlGrammar,
      css,
      yaml,
      rust,
      go,
      sql,
    ],
    engine: createJavaScriptRegexEngine(),
  });
});

/** The reference's HTML of code in a fence's language, or null where it is not one of ours. */
function expected(code: string, lang: string): string | null {
  const l = lang.toLowerCase().trim();
  const name = ALIASES[l] ?? l;
  if (!Object.hasOwn(SAMPLES, name) || code.length > 20_000) return null;
  const root = reference.codeToHast(code, { lang: name, theme: 'cctrail', tokenizeTimeLimit: 10_000 });
  return toHtml(root.children[0] as Parameters<typeof toHtml>[0]);
}

/** `highlightToHast` of a fresh copy of the module (nothing registered, nothing remembered), loaded or not. */
async function fresh(load = true): Promise<Highlight> {
  vi.resetModules();
  const module = await import('../src/views/markdown/highlight.js');
  if (load) await module.loadHighlighter();
  return module.highlightToHast;
}

function html(highlight: Highlight, code: string, lang: string): string | null {
  const tree = highlight(code, lang);
  return tree === null ? null : toHtml(tree as Parameters<typeof toHtml>[0]);
}

/** The fenced code blocks (code and fence language) of the text of the transcripts under a folder. */
function fences(dir: string): { code: string; lang: string }[] {
  const out: { code: string; lang: string }[] = [];
  const fence = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*\n([\s\S]*?)^ {0,3}\1[ \t]*$/gm;
  const stack = [dir];
  while (stack.length > 0) {
    const path = stack.pop() as string;
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) stack.push(join(path, name));
    else if (path.endsWith('.jsonl'))
      JSON.stringify(
        readFileSync(path, 'utf8')
          .split('\n')
          .flatMap((line) => {
            try {
              return [JSON.parse(line)];
            } catch {
              return [];
            }
          }),
        (_key, value) => {
          if (typeof value === 'string')
            for (const m of value.matchAll(fence)) out.push({ lang: m[2] ?? '', code: m[3] ?? '' });
          return value;
        },
      );
  }
  return out;
}

describe('highlighting', () => {
  it('gives every language, registered alone at first use, the HTML of the reference', async () => {
    for (const lang of Object.keys(SAMPLES)) {
      const highlight = await fresh();
      expect(html(highlight, SAMPLES[lang] as string, lang), lang).toBe(
        expected(SAMPLES[lang] as string, lang),
      );
    }
  });

  it('gives the same HTML whichever language comes first, Markdown (which embeds the others) included', async () => {
    const langs = Object.keys(SAMPLES);
    for (const order of [langs, [...langs].reverse()]) {
      const highlight = await fresh();
      for (const lang of order)
        expect(html(highlight, SAMPLES[lang] as string, lang), lang).toBe(
          expected(SAMPLES[lang] as string, lang),
        );
    }
  });

  it('reads every alias and spelling of a fence as its language, and no other', async () => {
    const highlight = await fresh();
    const names = [...Object.keys(SAMPLES), ...Object.keys(ALIASES)];
    for (const name of [...names, ...names.map((n) => ` ${n.toUpperCase()} `)]) {
      const lang = ALIASES[name.toLowerCase().trim()] ?? name.toLowerCase().trim();
      expect(html(highlight, SAMPLES[lang] as string, name), name).toBe(
        expected(SAMPLES[lang] as string, lang),
      );
    }
    for (const name of ['text', 'elixir', 'toml', '', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(highlight('const a = 1;\n', name), name).toBeNull();
  });

  it('has its trees written as hast-util-to-html writes them, without its walk', async () => {
    const highlight = await fresh();
    const hostile = [
      '',
      '\n\n',
      'a < b && c > d',
      `"q" 'q' \`q\` &amp; &#x3C;`,
      'x\uD800y \uDC00 😀 \u0000 \u202E',
      '<script>alert(1)</script>',
    ];
    const blocks = [
      ...Object.entries(SAMPLES).map(([lang, code]) => ({ lang, code })),
      ...Object.keys(SAMPLES).flatMap((lang) => hostile.map((code) => ({ lang, code }))),
      ...(existsSync(CORPUS) ? fences(CORPUS) : []),
    ];
    let written = 0;
    for (const { code, lang } of blocks) {
      const tree = highlight(code, lang);
      if (tree === null) continue;
      expect(shikiHtml(tree), `${lang}: ${code.slice(0, 200)}`).toBe(
        toHtml(tree as Parameters<typeof toHtml>[0]),
      );
      written++;
    }
    expect(written).toBeGreaterThan(50);
    // Any other shape is left to hast-util-to-html.
    for (const other of [
      { type: 'element', tagName: 'pre', properties: { className: ['x'] }, children: [] },
      { type: 'element', tagName: 'pre', properties: { class: '' }, children: [] },
      { type: 'element', tagName: 'div', properties: {}, children: [] },
      { type: 'element', tagName: 'pre', properties: {}, children: [{ type: 'comment', value: 'x' }] },
    ])
      expect(shikiHtml(other)).toBeUndefined();
  });

  it.runIf(existsSync(CORPUS))(
    'highlights every fenced block of the shared corpus as the reference does',
    async () => {
      const highlight = await fresh();
      const blocks = fences(CORPUS);
      let highlighted = 0;
      for (const { code, lang } of blocks) {
        const want = expected(code, lang);
        if (want !== null) highlighted++;
        expect(html(highlight, code, lang), `${lang}: ${code.slice(0, 200)}`).toBe(want);
      }
      expect(highlighted).toBeGreaterThan(10);
    },
  );

  it('highlights the same code in the same language once, and keeps languages apart', async () => {
    const highlight = await fresh();
    const code = 'let a = "x" # b\n';
    const first = highlight(code, 'ts');
    expect(highlight(code, 'typescript')).toBe(first);
    expect(highlight(`${code}`, 'TS')).toBe(first);
    for (const lang of ['bash', 'python', 'ts', 'yaml'])
      expect(html(highlight, code, lang), lang).toBe(expected(code, lang));
    expect(html(highlight, code, 'bash')).not.toBe(html(highlight, code, 'ts'));
  });

  it('forgets what it remembers past 200,000 characters of code, and highlights it again the same', async () => {
    const highlight = await fresh();
    const block = (i: number) => `${i}\n`.repeat(20_000 / `${i}\n`.length);
    const first = highlight(block(10), 'json');
    expect(highlight(block(10), 'json')).toBe(first);
    for (let i = 11; i <= 21; i++) highlight(block(i), 'json');
    const again = highlight(block(10), 'json');
    expect(again).not.toBe(first);
    expect(toHtml(again as Parameters<typeof toHtml>[0])).toBe(toHtml(first as Parameters<typeof toHtml>[0]));
  });

  it('leaves plain what it did before: large code, and everything until it is loaded', async () => {
    const highlight = await fresh();
    const large = 'a;\n'.repeat(7_000).slice(0, 20_001);
    expect(highlight(large, 'ts')).toBeNull();
    expect(html(highlight, large.slice(1), 'ts')).toBe(expected(large.slice(1), 'ts'));
    expect((await fresh(false))('const a = 1;\n', 'ts')).toBeNull();
  });
});
