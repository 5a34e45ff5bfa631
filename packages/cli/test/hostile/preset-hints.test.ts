import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { PRESET_HINTS } from '../../src/preset-hints.js';
import { presetSecrets } from '../../src/preset-secrets.js';
import { plantedSecrets } from './planted-secrets.js';

const j = (...parts: string[]) => parts.join('');
// One shape per rule that has a literal, written the way the preset's own rule tests write them.
const SHAPES = [
  j('xoxb-', '1234567890-', '1234567890123-', 'abcdefghijABCDEFGHIJabcd'),
  j('https://hooks.slack.com/services/', 'T00000000/B00000000/', 'XXXXXXXXXXXXXXXXXXXXXXXX'),
  j('mongodb://admin:', 'hunter2pass', '@cluster0.example.net/db'),
  j('postgres://app:', 'hunter2pass', '@db.internal:5432/app'),
  j('https://deploy:', 'hunter2pass', '@example.com/'),
  j('aws_secret_access_key = ', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
  j('ghp_', 'abcdefghijABCDEFGHIJabcdefghijABCDEF'),
  j('glpat-', 'Ab3dEf6hIj9kLm2nOp5q'),
  j('npm_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3d'),
  j('vcp_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1w'),
  j('dapi', '0123456789abcdef0123456789abcdef'),
  j('tskey-auth-', 'kABCDEF1CNTRL-abcdefghijklmnopqrstuvwxyz123456'),
  j('figd_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6h'),
  j('gsk_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2nOp5q'),
  j('dckr_pat_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1'),
  j('-----BEGIN RSA PRIVATE KEY-----\n', 'MIIEowIBAAKCAQEA'.repeat(4), '\n-----END RSA PRIVATE KEY-----'),
];

describe("PRESET_HINTS: the literals that decide which of the preset's rules run on a string", () => {
  it('lists every rule of the preset (a rule it does not list would run on every string)', () => {
    const ids = (rules as unknown as { meta: { id: string } }[])
      .map((rule) => rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, ''))
      .filter((id) => id !== 'filter-comments');
    expect(ids.filter((id) => !(id in PRESET_HINTS))).toEqual([]);
    expect(Object.keys(PRESET_HINTS).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('lose nothing: the rules chosen by literal find what every rule finds', () => {
    const texts = [...SHAPES, ...plantedSecrets(3).map((s) => s.text), SHAPES.join('\n some prose \n')];
    let found = 0;
    for (const text of texts) {
      const all = presetSecrets(text, { everyRule: true });
      found += all.length;
      expect(presetSecrets(text), text).toEqual(all);
    }
    expect(found).toBeGreaterThan(SHAPES.length);
  });

  it('run no rule on a string without any literal', () => {
    expect(presetSecrets('plain prose with no key, a path /home/dev/x.ts and an id toolu_01ABC')).toEqual([]);
  });
});
