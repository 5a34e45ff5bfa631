import { describe, expect, it } from 'vitest';
import {
  flag,
  formatOptions,
  listOption,
  type OptionSpec,
  parseCommandLine,
  stringOption,
} from '../src/command-line/args.js';
import { CliError } from '../src/command-line/errors.js';

const specs: OptionSpec[] = [
  { name: 'output', short: 'o', type: 'string', value: 'DIR', description: 'where' },
  { name: 'project', type: 'string', multiple: true, value: 'NAME', description: 'which' },
  { name: 'json', type: 'boolean', description: 'json' },
];

describe('parseCommandLine', () => {
  it('reads options and positionals in any order', () => {
    const { options, positionals } = parseCommandLine(
      ['a', '-o', 'out', '--json', 'b', '--project', 'x,y', '--project=z'],
      specs,
      'export',
    );
    expect(positionals).toEqual(['a', 'b']);
    expect(stringOption(options, 'output')).toBe('out');
    expect(flag(options, 'json')).toBe(true);
    expect(listOption(options, 'project')).toEqual(['x', 'y', 'z']);
  });

  it('treats everything after -- as paths', () => {
    expect(parseCommandLine(['--', '--json'], specs, 'stats').positionals).toEqual(['--json']);
  });

  it.each([
    [['--nope'], 'unknown option --nope'],
    [['-o'], 'option -o, --output needs a value'],
    [['--json=1'], "Option '--json' does not take an argument"],
    [['--project', '-home-me'], 'the value of --project starts with "-": write it as --project=VALUE'],
  ])('rejects %j with a usage error', (args, message) => {
    let caught: unknown;
    try {
      parseCommandLine(args, specs, 'export');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliError);
    expect((caught as CliError).exitCode).toBe(2);
    expect((caught as CliError).message).toContain(message);
    expect((caught as CliError).hint).toBe('Run `cctrail export --help` for the options.');
  });
});

describe('formatOptions', () => {
  it('aligns the option list', () => {
    expect(formatOptions(specs)).toMatchInlineSnapshot(`
      "  -o, --output DIR    where
            --project NAME  which; repeatable
            --json          json"
    `);
  });
});
