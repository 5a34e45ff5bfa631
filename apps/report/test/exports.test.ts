import { expect, it } from 'vitest';
import * as report from '../src/index.js';

it('pins the public API', () => {
  expect(Object.keys(report).sort()).toEqual([
    'OUTPUT_NOT_A_REPORT',
    'OutputFolderError',
    'buildReport',
    'entrySearchText',
    'escapeHtml',
    'inspectOutputFolder',
    'loadLiveRenderer',
    'pageThreads',
    'prepareSession',
    'renderLiveTranscript',
  ]);
});
