import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { redactSecrets, redactText } from '../../src/privacy/redact.js';
import { plantedSecrets } from './planted-secrets.js';
import { PRESET_ONLY, PRESET_SHAPES } from './preset-shapes.js';

// secretlint's recommended preset, pinned, is the reference: whatever it finds, cctrail's redaction removes.
const config = { rules: [{ id: creator.meta.id, rule: creator }] };

async function secretlintFinds(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { filePath: '/transcript.txt', content: text, ext: '.txt', contentType: 'text' },
    options: { config, maskSecrets: false },
  });
  return result.messages.map((m) => text.slice(m.range[0], m.range[1]));
}

describe("secretlint's recommended preset as the reference", () => {
  it('finds nothing that cctrail leaves in a planted secret or a secretlint shape', async () => {
    const texts = [...plantedSecrets(5).map((s) => s.text), ...PRESET_SHAPES];
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

describe("secretlint's recommended preset as the engine", () => {
  it('redacts the shapes only the preset knows, in one string', () => {
    for (const secret of PRESET_ONLY) {
      const result = redactText(`the key is ${secret} (keep it)`);
      expect(result.text).not.toContain(secret);
      expect(result.text).toMatch(/^the key is \[REDACTED:[a-z-]+\] \(keep it\)$/);
      expect(result.count).toBe(1);
    }
  });

  it('redacts them in every string of a session: values, object keys, past a chunk of joined strings', () => {
    const filler = 'x'.repeat(1 << 20);
    const session = {
      entries: PRESET_ONLY.map((secret, i) => ({
        content: [{ type: 'text', text: `${filler} line ${i}: ${secret}` }],
        input: { [secret]: 'as a key', note: `export TOKEN=${secret}` },
      })),
    };
    const found = new Set<string>();
    const { value, count } = redactSecrets(session, found);
    const text = JSON.stringify(value);
    for (const secret of PRESET_ONLY) expect(text).not.toContain(secret);
    expect(found.size).toBeGreaterThanOrEqual(PRESET_ONLY.length);
    expect(count).toBeGreaterThanOrEqual(PRESET_ONLY.length * 3);
  });

  it('reads them without terminal colour codes, which may split them, and publishes the text without', () => {
    for (const secret of PRESET_ONLY) {
      const split = `\u001b[1m${secret.slice(0, 6)}\u001b[0m\u001b[32m${secret.slice(6)}\u001b[0m`;
      const result = redactText(`key: ${split} done`);
      expect(result.text, secret).toMatch(/^key: \[REDACTED:[a-z-]+\] done$/);
      expect(result.count).toBe(1);
    }
  });

  it('ignores a transcript that asks secretlint to stop (`secretlint-disable`)', () => {
    const secret = PRESET_ONLY[0]!;
    expect(redactText(`// secretlint-disable\n${secret}`).text).not.toContain(secret);
  });
});

describe('planted secrets in text full of the keywords ordinary text holds', () => {
  it('are all redacted (the second checks of common keywords lose none)', () => {
    const prose =
      'input_tokens: 12, the token budget, task-list, https://example.com/a, a secret of prose, pass it on, ';
    for (const secret of plantedSecrets(7)) {
      const text = `${prose.repeat(20)}${secret.text}\n${prose}`;
      expect(redactText(text).text, secret.kind).not.toContain(secret.value);
    }
  });
});
