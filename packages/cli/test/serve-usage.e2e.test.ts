import { describe, expect, it } from 'vitest';
import { cctrail, FIXTURES } from './helpers.js';

// `cctrail serve`'s command line: its options, and a port that is not one refused.

describe('cctrail serve, usage', () => {
  it('offers the report options but --base and --watch, and its own', async () => {
    const help = await cctrail(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--port N');
    expect(help.stdout).toContain('--host ADDR');
    expect(help.stdout).toContain('--no-redact');
    expect(help.stdout).not.toContain('--base');
    expect(help.stdout).not.toContain('--watch');
    expect((await cctrail(['--help'])).stdout).toMatch(/^ {2}serve +build the report, serve it/m);
  });

  it('refuses a port that is not one', async () => {
    const run = await cctrail(['serve', FIXTURES, '--port', '99999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--port must be 0 to 65535, got 99999');
  });
});
