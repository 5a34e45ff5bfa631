import { describe, expect, it } from 'vitest';
import * as cctrail from '../src/index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(cctrail).sort()).toMatchInlineSnapshot(`
      [
        "COMMANDS",
        "CliError",
        "EXIT",
        "NameAllocator",
        "SECRET_PATTERNS",
        "commandHelp",
        "main",
        "mainHelp",
        "parseCommandLine",
        "redactSecrets",
        "redactText",
        "sanitizeId",
        "shortenHome",
        "shortenHomePaths",
      ]
    `);
  });

  it('lists every command with help and examples', () => {
    expect(cctrail.COMMANDS.map((c) => c.name)).toEqual([
      'export',
      'stats',
      'report',
      'serve',
      'verify',
      'hook',
      'cache',
    ]);
    for (const command of cctrail.COMMANDS) {
      const help = cctrail.commandHelp(command);
      expect(help).toContain(`Usage: cctrail ${command.name}`);
      expect(command.examples.length).toBeGreaterThan(0);
    }
  });
});
