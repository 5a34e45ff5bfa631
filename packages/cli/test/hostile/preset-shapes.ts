/** A piece of a fake secret: shapes are written in parts, so that no file of the repository holds one whole. */
const j = (...parts: string[]) => parts.join('');

/** Shapes only secretlint's preset knows (cctrail's own patterns do not). */
export const PRESET_ONLY: readonly string[] = [
  j('vcp_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1w'),
  j('dapi', '0123456789abcdef0123456789abcdef'),
  j('tskey-auth-', 'kABCDEF1CNTRL-abcdefghijklmnopqrstuvwxyz123456'),
  j('figd_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6h'),
  j('gsk_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2nOp5q'),
  j('dckr_pat_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1'),
];

/**
 * One shape per rule of secretlint's recommended preset that has a literal, written the way the preset's own rule
 * tests write them: what the preset finds, cctrail's redaction must find too.
 */
export const PRESET_SHAPES: readonly string[] = [
  j('xoxb-', '1234567890-', '1234567890123-', 'abcdefghijABCDEFGHIJabcd'),
  j('https://hooks.slack.com/services/', 'T00000000/B00000000/', 'XXXXXXXXXXXXXXXXXXXXXXXX'),
  j('mongodb://admin:', 'hunter2pass', '@cluster0.example.net/db'),
  j('postgres://app:', 'hunter2pass', '@db.internal:5432/app'),
  j('https://deploy:', 'hunter2pass', '@example.com/'),
  j('aws_secret_access_key = ', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
  j('ghp_', 'abcdefghijABCDEFGHIJabcdefghijABCDEF'),
  j('glpat-', 'Ab3dEf6hIj9kLm2nOp5q'),
  j('npm_', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3d'),
  ...PRESET_ONLY,
  j('-----BEGIN RSA PRIVATE KEY-----\n', 'MIIEowIBAAKCAQEA'.repeat(4), '\n-----END RSA PRIVATE KEY-----'),
  j('AKIA', 'QWERTYUIOPASDF12'),
];
