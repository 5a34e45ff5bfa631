/**
 * The shapes #31 found published, each assembled at run time (no scanner mistakes this file for a leak): vendor
 * tokens, passwords on command lines and in credential files, encodings (split, base64-wrapped, cut tokens)
 * and tokens glued to escapes written as text.
 */

import type { PlantedSecret } from './planted-secrets.js';

const j = (...parts: string[]) => parts.join('');
/** `n` characters of an alphabet, from a hash of the seed and the position (no two seeds share a run). */
const pick = (alphabet: string, n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => {
    let t = Math.imul(seed + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35);
    t = Math.imul(t ^ (t >>> 15), 0x2c1b3c6d);
    t ^= t >>> 13;
    return alphabet[(t >>> 0) % alphabet.length];
  }).join('');
const ALNUM = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tUvWxYz01';

/** The shapes of #31; `seed` makes their values distinct between sets. */
export function issueShapes(seed = 1): PlantedSecret[] {
  const a = (n: number, k = 0) => pick(ALNUM, n, seed * 101 + k);
  const h = (n: number, k = 0) => pick('0123456789abcdef', n, seed * 101 + k);
  const up = (n: number, k = 0) => pick('ABCDEFGHJKLMNPQRSTUVWXYZ234567', n, seed * 101 + k);
  const s = (kind: string, value: string, text: string): PlantedSecret => ({ kind, value, text });
  const ghp = j('ghp_', a(36, 60));
  const ant = j('sk-ant-api03-', a(60, 2));
  const aws = j('AKIA', up(16, 3));
  const ppk = a(64, 4);
  return [
    s('xai', j('xai-', a(80)), j('XAI_KEY xai-', a(80))),
    s('replicate', j('r8_', a(37)), j('export REPLICATE r8_', a(37))),
    s('perplexity', j('pplx-', a(48)), j('client = Perplexity(pplx-', a(48), ')')),
    s('langsmith', j('lsv2_pt_', h(32), '_', h(10, 1)), j('LANGCHAIN lsv2_pt_', h(32), '_', h(10, 1))),
    s('pinecone', j('pcsk_', a(6), '_', a(60, 1)), j('pc = Pinecone(pcsk_', a(6), '_', a(60, 1), ')')),
    s('elevenlabs', j('sk_', h(48, 2)), j('xi-api: sk_', h(48, 2))),
    s('terraform', j(a(14, 3), '.atlasv1.', a(67, 4)), j('tf login ', a(14, 3), '.atlasv1.', a(67, 4))),
    s(
      'atlassian',
      j('ATATT3xFfGF0', a(170, 5), '=', h(8, 5)),
      j('jira ATATT3xFfGF0', a(170, 5), '=', h(8, 5)),
    ),
    s('postman', j('PMAK-', h(24, 6), '-', h(34, 7)), j('postman PMAK-', h(24, 6), '-', h(34, 7))),
    s('sentry-user', j('sntryu_', h(64, 8)), j('SENTRY sntryu_', h(64, 8))),
    s(
      'sentry-org',
      j('sntrys_eyJpYXQiO', a(60, 9), '_', a(43, 9)),
      j('sntrys_eyJpYXQiO', a(60, 9), '_', a(43, 9)),
    ),
    s('newrelic', j('NRAK-', up(27, 10)), j('nr key NRAK-', up(27, 10))),
    s('supabase', j('sbp_', h(40, 11)), j('supabase login --token sbp_', h(40, 11))),
    s('planetscale', j('pscale_tkn_', a(43, 12)), j('pscale auth pscale_tkn_', a(43, 12))),
    s('doppler', j('dp.st.', a(40, 13)), j('doppler dp.st.', a(40, 13))),
    s('google-access-token', j('ya29.', a(120, 14)), j('access ya29.', a(120, 14))),
    s('google-refresh', j('1//0', a(100, 15)), j('refresh 1//0', a(100, 15))),
    s('bitbucket', j('ATBB', a(32, 16)), j('bitbucket ATBB', a(32, 16))),
    s('1password', j('ops_eyJ', a(300, 17)), j('OP ops_eyJ', a(300, 17))),
    s('gitlab-cbt', j('glcbt-', a(2, 18), '_', a(20, 18)), j('CI glcbt-', a(2, 18), '_', a(20, 18))),
    s('gitlab-ft', j('glft-', a(20, 19)), j('feed glft-', a(20, 19))),
    s('mailgun', j('key-', h(32, 20)), j('api:key-', h(32, 20))),
    s(
      'mailchimp',
      j(h(32, 21), '-us', String(10 + (seed % 9))),
      j('mc ', h(32, 21), '-us', String(10 + (seed % 9))),
    ),
    s('square', j('EAAA', a(60, 22)), j('square EAAA', a(60, 22))),
    s('heroku', j('HRKU-AA', a(58, 23)), j('heroku HRKU-AA', a(58, 23))),
    s('openai-sess', j('sess-', a(40, 24)), j('session sess-', a(40, 24))),
    s(
      'discord-bot',
      j('MT', a(24, 25), '.', a(6, 25), '.', a(38, 26)),
      j('Bot MT', a(24, 25), '.', a(6, 25), '.', a(38, 26)),
    ),
    s('discord-webhook', j(a(68, 27)), j('https://discord.com/api/webhooks/123456789012345678/', a(68, 27))),
    s(
      'teams-webhook',
      j(h(8, 28), '-', h(4, 28), '@', h(8, 29), '/IncomingWebhook/', h(32, 30)),
      j(
        'https://acme.webhook.office.com/webhookb2/',
        h(8, 28),
        '-',
        h(4, 28),
        '@',
        h(8, 29),
        '/IncomingWebhook/',
        h(32, 30),
      ),
    ),
    s('firebase', j('AAAA', a(7, 31), ':APA91b', a(134, 32)), j('FCM AAAA', a(7, 31), ':APA91b', a(134, 32))),
    s(
      'azure-devops',
      j(pick('abcdefghijklmnopqrstuvwxyz234567', 52, seed)),
      j('AZURE_DEVOPS_EXT_PAT=', pick('abcdefghijklmnopqrstuvwxyz234567', 52, seed)),
    ),
    // Passwords on command lines and in credential files.
    s('mysql-quoted', j(a(10, 33), '!x'), j("mysql -u root -p'", a(10, 33), "!x' app")),
    s('sshpass', j(a(11, 34), '#'), j('sshpass -p ', a(11, 34), '# ssh deploy@host')),
    s('redis-cli', j(a(12, 35)), j('redis-cli -h cache -a ', a(12, 35), ' ping')),
    s('docker-login', j(a(13, 36)), j('docker login -u bot -p ', a(13, 36), ' registry.example.com')),
    s('pgpass', j(a(14, 37), '@'), j('db.internal:5432:app:deploy:', a(14, 37), '@')),
    s('netrc', j(a(12, 38)), j('machine api.example.com\n  login deploy\n  password ', a(12, 38), '\n')),
    s(
      'kubeconfig',
      j('LS0tLS1CRUdJTi', a(60, 39)),
      j('users:\n- user:\n    client-key-data: LS0tLS1CRUdJTi', a(60, 39)),
    ),
    s('cookie', j('sid=', a(32, 40)), j('Cookie: sid=', a(32, 40), '; theme=dark')),
    s('set-cookie', j('session=', a(32, 41)), j('< Set-Cookie: session=', a(32, 41), '; Path=/; HttpOnly')),
    s(
      'putty',
      ppk,
      j(
        'PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 2\n',
        ppk,
        '\n',
        a(64, 5),
        '\nPrivate-MAC: ',
        h(64, 42),
      ),
    ),
    s(
      'npmrc-auth',
      j(Buffer.from(`bot:${a(12, 43)}`).toString('base64')),
      j('_auth = ', Buffer.from(`bot:${a(12, 43)}`).toString('base64')),
    ),
    s('hex-private-key', j('0x', h(64, 44)), j('Private key: 0x', h(64, 44))),
    // Encodings.
    s(
      'base64-aws',
      Buffer.from(`[default]\naws_access_key_id = ${aws}\n`).toString('base64'),
      j('echo ', Buffer.from(`[default]\naws_access_key_id = ${aws}\n`).toString('base64'), ' | base64 -d'),
    ),
    s('wrapped-ghp', ghp.slice(20), j('token: ', ghp.slice(0, 20), '\n', ghp.slice(20), '\n')),
    s('wrapped-anthropic', ant.slice(30), j('  ', ant.slice(0, 30), '\n', ant.slice(30))),
    s('truncated-ghp', j('ghp_', a(14, 45)), j('using ghp_', a(14, 45), '… (truncated)')),
    s('truncated-anthropic', j('sk-ant-api03-', a(12, 46)), j('ANTHROPIC sk-ant-api03-', a(12, 46), '...')),
    // Glued to escapes written as text, and URL escapes.
    s('escaped-newline', j('ghp_', a(36, 47)), j('"line\\nghp_', a(36, 47), '\\nnext"')),
    s('escaped-tab', j('sk-ant-api03-', a(50, 48)), j('key:\\tsk-ant-api03-', a(50, 48))),
    s('escaped-cr', j('glpat-', a(20, 49)), j('out\\r\\nglpat-', a(20, 49))),
    s(
      'escaped-unicode',
      j('xoxb-', '1234567890', String(seed), '-', a(24, 50)),
      j('\\u000axoxb-', '1234567890', String(seed), '-', a(24, 50)),
    ),
    s('url-equals', j('ghp_', a(36, 51)), j('https://x.io/cb?token%3Dghp_', a(36, 51))),
    // Cut by the title (120 characters, the first prompt read as `please use <text> now`) and by the first
    // prompt (2,000): the part before the cut is what must not be published.
    s('title-cut-token', j('ghp_', a(8, 53)), j('t'.repeat(95), ' ghp_', a(36, 53))),
    s('title-cut-password', j('Qz', a(5, 54)), j('p'.repeat(90), ' DB_PASSWORD=Qz', a(14, 54))),
    s('prompt-cut-token', j('sk-ant-api03-', a(10, 55)), j('f'.repeat(1975), ' sk-ant-api03-', a(60, 55))),
    s('url-newline', j('AKIA', up(16, 52)), j('body=id%0AAKIA', up(16, 52), '%0A')),
  ];
}
