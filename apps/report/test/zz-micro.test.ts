import { createHighlighter } from 'shiki';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { it } from 'vitest';

it('micro', async () => {
  for (const engine of [undefined, createJavaScriptRegexEngine()]) {
    const h = await createHighlighter({
      themes: ['github-light', 'github-dark'],
      langs: ['ts', 'json', 'bash'],
      ...(engine ? { engine } : {}),
    });
    let t = performance.now();
    for (let i = 0; i < 1000; i++)
      h.codeToHast(`export function f${i}(x: number): number {\n  return x * 3;\n}`, {
        lang: 'ts',
        themes: { light: 'github-light', dark: 'github-dark' },
        defaultColor: 'light',
      });
    console.log(engine ? 'js' : 'wasm', 'ts dual', performance.now() - t);
    t = performance.now();
    for (let i = 0; i < 1000; i++)
      h.codeToHast(`export function f${i}(x: number): number {\n  return x * 3;\n}`, {
        lang: 'ts',
        theme: 'github-light',
      });
    console.log(engine ? 'js' : 'wasm', 'ts single', performance.now() - t);
  }
});
