import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/command-line/args.js';
import { reportCommand } from '../../src/commands/report.js';
import { optionArgs } from '../../src/serve/child-build.js';

describe('optionArgs', () => {
  it('writes the options of a report back as arguments that parse to the same options', () => {
    const given = ['-o', 'site', '--short-home', '--project', 'a', '--project=-home-b', '--title=--x'];
    const { options } = parseCommandLine(given, reportCommand.options, 'report');
    const args = optionArgs({ ...options, open: false }, reportCommand.options);
    expect(args).toEqual([
      '--output=site',
      '--title=--x',
      '--short-home',
      '--project=a',
      '--project=-home-b',
    ]);
    expect(parseCommandLine(args, reportCommand.options, 'report').options).toEqual(options);
  });
});
