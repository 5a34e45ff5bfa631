import { expect, it } from 'vitest';
import * as report from '../src/index.js';

it('pins the public API', () => {
  expect(Object.keys(report).sort()).toEqual([
    'CACHE_FOLDER',
    'buildReport',
    'checkIndex',
    'checkSession',
    'mermaidLabel',
    'renderMarkdown',
    'rereadsAfterCompactions',
    'sessionMermaid',
    'slugify',
    'timelineSeries',
    'timelineSvg',
    'uniqueSlugs',
  ]);
});
