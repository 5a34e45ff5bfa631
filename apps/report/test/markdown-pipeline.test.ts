import { describe, expect, it } from 'vitest';
import { renderMarkdownWith } from '../src/views/markdown/markdown.js';
import { seeded } from './helpers/markdown-texts.js';

describe('the full markdown pipeline', () => {
  it('renders a text the same whatever texts it rendered before (its parser and compiler are reused)', () => {
    const parts = [
      '[x]',
      '[x]: https://a.example',
      '[^1]',
      '[^1]: n',
      '&amp;',
      '&#60;',
      '&nope;',
      'a\\',
      '  ',
    ]
      .concat(['title', '===', '---', '```ts', '```', '~~~', '1. a', '3) b', '- [ ] t', '| a |', '|---|'])
      .concat(['> q', '<div>', '<!--', '**s', '~~d~~', 'https://a.example/x', 'www.b.example', '![i](u)'])
      .concat(['[l](https://c.example "t")', '<https://d.example>', 'a@b.example', '    code', '', '\n']);
    const random = seeded(2612);
    const texts = Array.from({ length: 400 }, () =>
      Array.from(
        { length: 1 + Math.floor(random() * 8) },
        () => parts[Math.floor(random() * parts.length)],
      ).join(random() < 0.5 ? '\n' : ' '),
    );
    const render = (text: string) => renderMarkdownWith(text, false).value;
    const forwards = texts.map(render);
    const backwards = [...texts].reverse().map(render).reverse();
    const alone = texts.map((text) => {
      render(texts[(texts.indexOf(text) + 7) % texts.length] ?? '');
      return render(text);
    });
    expect(backwards).toEqual(forwards);
    expect(alone).toEqual(forwards);
  });
});
