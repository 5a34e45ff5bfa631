/**
 * Fake secrets of every shape #19 names, each assembled at run time (so no scanner mistakes this file for a
 * leak) and each with a `value`: the text that must not reach any published file. `text` is how a transcript
 * shows it (an assignment, a command, a header); several are unique per call so that a grep finds each one.
 */

export interface PlantedSecret {
  kind: string;
  /** How the secret appears in a transcript. */
  text: string;
  /** The part that must never be published. */
  value: string;
}

const j = (...parts: string[]) => parts.join('');
const rep = (c: string, n: number) => c.repeat(n);
const hex = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => '0123456789abcdef'[(i * 7 + seed) % 16]).join('');
const alnum = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => 'aB3dE5fG7hJ9kL2mN4pQ6rS8tU'[(i * 5 + seed) % 26]).join('');

/** The planted secrets; `seed` makes their values distinct between sets. */
export function plantedSecrets(seed = 1): PlantedSecret[] {
  const s = (value: string, text: string, kind: string): PlantedSecret => ({ kind, text, value });
  const v = (n: number) => alnum(n, seed);
  const age = Array.from(
    { length: 58 },
    (_, i) => 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'[(i * 3 + seed) % 32],
  ).join('');
  const basic = Buffer.from(`deploy:${v(12)}`).toString('base64');
  return [
    s(j('sk-ant-api03-', v(40)), j('key sk-ant-api03-', v(40)), 'anthropic'),
    s(j('ghp_', v(36)), j('GH=ghp_', v(36)), 'github'),
    s(
      j('AKIA', 'QWERTYUIOPASDF', String(seed).padStart(2, '7')),
      j('aws AKIA', 'QWERTYUIOPASDF', String(seed).padStart(2, '7')),
      'aws',
    ),
    s(j(v(10), 'Lower9'), j('db_password=', v(10), 'Lower9'), 'lower-assignment'),
    s(j(v(9), 'yamlpw'), j('database:\n  password: ', v(9), 'yamlpw\n'), 'yaml'),
    s(j(v(11), 'ini'), j('[db]\nPassword = ', v(11), 'ini'), 'ini'),
    s(j(v(12), 'json'), j('{"client_secret": "', v(12), 'json"}'), 'json'),
    s(
      j(v(14), 'dotenv'),
      j('# .env\nDEBUG=false\nDJANGO_SECRET_KEY=', v(14), 'dotenv\nPORT=8000\n'),
      'dotenv',
    ),
    s(j(v(13), 'Mixed'), j('headers:\n  X-Api-Key: ', v(13), 'Mixed\n'), 'mixed-case-key'),
    s(j('vcp_', v(24)), j('VERCEL vcp_', v(24)), 'vercel'),
    s(j('dckr_pat_', v(27)), j('docker login -u dev --password-stdin <<< dckr_pat_', v(27)), 'docker'),
    s(j(v(10), 'Flag'), j('deploy --password ', v(10), 'Flag --yes'), 'flag'),
    s(j(v(8), 'Tok'), j('gh auth --token=', v(8), 'Tok'), 'flag-eq'),
    s(j(v(9), 'my'), j('mysql -u root -p', v(9), 'my prod'), 'mysql'),
    s(
      j('https://hooks.slack.com/services/T', rep('0', 8), '/B', rep('1', 8), '/', v(24)),
      j('curl -X POST https://hooks.slack.com/services/T', rep('0', 8), '/B', rep('1', 8), '/', v(24)),
      'slack-webhook',
    ),
    s(j('whsec_', v(32)), j('STRIPE_WEBHOOK=whsec_', v(32)), 'whsec'),
    s(j('GOCSPX-', v(28)), j('client GOCSPX-', v(28)), 'google-oauth'),
    s(j('npm_', v(36)), j('//registry.npmjs.org/:_authToken=npm_', v(36)), 'npm'),
    s(j('glpat-', v(20)), j('token glpat-', v(20)), 'gitlab'),
    s(j('hf_', v(34)), j('HF hf_', v(34)), 'huggingface'),
    s(j('SG.', v(22), '.', v(43)), j('sendgrid SG.', v(22), '.', v(43)), 'sendgrid'),
    s(j('SK', hex(32, seed)), j('twilio SK', hex(32, seed)), 'twilio'),
    s(j('dop_v1_', hex(64, seed)), j('doctl auth init -t dop_v1_', hex(64, seed)), 'digitalocean'),
    s(j('shpat_', hex(32, seed + 3)), j('X-Shopify-Access-Token: shpat_', hex(32, seed + 3)), 'shopify'),
    s(j('pypi-AgEIcHlwaS5vcmc', v(60)), j('twine upload -p pypi-AgEIcHlwaS5vcmc', v(60)), 'pypi'),
    s(j('12345678', String(seed), ':AA', v(33)), j('bot 12345678', String(seed), ':AA', v(33)), 'telegram'),
    s(j('AGE-SECRET-KEY-1', age), j('# key\nAGE-SECRET-KEY-1', age), 'age'),
    s(basic, j('Authorization: Basic ', basic), 'basic-auth'),
    s(
      j(v(86), '=='),
      j(
        'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=',
        v(86),
        '==;EndpointSuffix=core.windows.net',
      ),
      'azure-key',
    ),
    s(
      j(v(30), '%3D'),
      j('https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=', v(30), '%3D'),
      'azure-sas',
    ),
    s(j(v(12), 'rd'), j('redis://:', v(12), 'rd@cache.internal:6379/0'), 'redis'),
    s(j('sk-ant-api03-', v(30), 'ansi'), j('\u001b[31msk-ant-api03-', v(30), 'ansi\u001b[0m'), 'ansi'),
    s(
      j('MIIEpA', v(40)),
      j('-----BEGIN RSA PRIVATE KEY-----\nMIIEpA', v(40), '\n', v(64), '\n[output truncated]'),
      'pem-cut',
    ),
  ];
}
