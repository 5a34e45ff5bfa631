import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/redact.js';
import { plantedSecrets } from './planted-secrets.js';

// secretlint's recommended preset, pinned, is the reference: whatever it finds, cctrail's redaction removes.
const config = { rules: [{ id: creator.meta.id, rule: creator }] };

async function secretlintFinds(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { filePath: '/transcript.txt', content: text, ext: '.txt', contentType: 'text' },
    options: { config, maskSecrets: false },
  });
  return result.messages.map((m) => text.slice(m.range[0], m.range[1]));
}

const j = (...parts: string[]) => parts.join('');
// Shapes secretlint's preset knows, written the way its rules' tests write them.
const SECRETLINT_SHAPES = [
  j('xoxb-', '1234567890-', '1234567890123-', 'abcdefghijABCDEFGHIJabcd'),
  j('https://hooks.slack.com/services/', 'T00000000/B00000000/', 'XXXXXXXXXXXXXXXXXXXXXXXX'),
  j('mongodb://admin:', 'hunter2pass', '@cluster0.example.net/db'),
  j('postgres://app:', 'hunter2pass', '@db.internal:5432/app'),
  j('AKIA', 'QWERTYUIOPASDF12'),
  j('ghp_', 'abcdefghijABCDEFGHIJabcdefghijABCDEF'),
];

describe("secretlint's recommended preset as the reference", () => {
  it('finds nothing that cctrail leaves in a planted secret or a secretlint shape', async () => {
    const texts = [...plantedSecrets(5).map((s) => s.text), ...SECRETLINT_SHAPES];
    const missed: string[] = [];
    let found = 0;
    for (const text of texts) {
      const redacted = redactText(text).text;
      for (const secret of await secretlintFinds(text)) {
        found++;
        if (redacted.includes(secret)) missed.push(secret);
      }
    }
    expect(found).toBeGreaterThan(10);
    expect(missed).toEqual([]);
  });

  it('and cctrail redacts every planted secret, also those secretlint does not know', async () => {
    const unknownToSecretlint: string[] = [];
    for (const secret of plantedSecrets(6)) {
      expect(redactText(secret.text).text, secret.kind).not.toContain(secret.value);
      if ((await secretlintFinds(secret.text)).length === 0) unknownToSecretlint.push(secret.kind);
    }
    expect(unknownToSecretlint.length).toBeGreaterThan(0);
  });
});
