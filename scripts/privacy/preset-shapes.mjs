// Writes `packages/cli/src/privacy/preset-shapes.ts`: the vendor shapes of secretlint's recommended preset as
// cctrail's own patterns (`SecretPattern`), derived from the preset's rules, not written by hand. Each rule is
// created through the preset's public API (`rules`, with the options below) and run once on a source that writes
// down the expressions it matches with (`presetExpressions`, `preset-rules.ts`); each expression becomes a pattern
// with its keywords (`requiredLiterals`, the same literals that select the preset's rules), its scope (`word`
// when it cannot match whitespace or a quote, else `text`) and cctrail's name for the secret.
//
// The adapter, documented here and nowhere else:
// - `kind`: cctrail's name for what the expression finds (`[REDACTED:<kind>]`), as it was before the preset's
//   shapes replaced cctrail's hand-written ones; `null`: the expression is not used (see its reason).
// - `secret`: the capture group that is the secret becomes the named group `secret` (only it is replaced).
// - `confirm`: a match is a secret only when the preset's own rule, run on the match alone, reports it whole
//   (its code-level checks: SendGrid's 69 characters, a private key's base64, a 1Password token's JSON).
//   `aws` is not confirmed: its rule ignores AWS's documented example key id, and a key in a transcript is
//   published whatever it is (the planted-secret tests use that one).
// - `options`: options given to the rule when its expressions are read (`aws` finds key ids only with
//   `enableIDScanRule`); redaction runs the preset's handlers without options.
// - `handler`: the rule's handler still runs in redaction, for what its options-less expressions find and no
//   pattern here takes (`aws`: the secret access key).
// The preset's rules listed here, but for `handler`, run only as these patterns: redaction does not run their
// handlers again.
// Where the preset's expression is narrower than what transcripts show (a token cut short, glued, longer), a
// pattern of cctrail's own (`preset-complements.ts`) runs after it and says what the preset lacks.
//
//   pnpm --filter cctrail build && node scripts/privacy/preset-shapes.mjs

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'packages/cli');
const OUT = join(cli, 'src/privacy/preset-shapes.ts');

/** For each rule derived: its options, whether matches are confirmed, and each expression's use, in order. */
export const ADAPTER = {
  aws: {
    options: { enableIDScanRule: true },
    confirm: false,
    // The rule's handler still runs, for the secret access key (the only expression it has without options).
    handler: true,
    expressions: [
      { kind: 'aws-access-key' },
      { kind: null, reason: 'an AWS account id is not a secret (the preset looks for it only when asked)' },
      {
        kind: null,
        reason: 'the secret access key: its keyword `secret` is in prose, so the handler runs it',
      },
    ],
  },
  privatekey: { confirm: true, expressions: [{ kind: 'private-key' }] },
  npm: { confirm: true, expressions: [{ kind: 'npm-token' }] },
  slack: { confirm: true, expressions: [{ kind: 'slack-token' }, { kind: 'slack-webhook' }] },
  sendgrid: { confirm: true, expressions: [{ kind: 'sendgrid-key' }] },
  shopify: { confirm: true, expressions: [{ kind: 'shopify-token' }] },
  stripe: { confirm: true, expressions: [{ kind: 'stripe-key' }] },
  github: {
    confirm: true,
    expressions: [{ kind: 'github-token' }, { kind: 'github-token' }, { kind: 'github-token' }],
  },
  gitlab: { confirm: true, expressions: [{ kind: 'gitlab-token' }] },
  openai: { confirm: true, expressions: [{ kind: 'openai-key' }] },
  anthropic: { confirm: true, expressions: [{ kind: 'anthropic-key' }] },
  huggingface: { confirm: true, expressions: [{ kind: 'huggingface-token' }] },
  linear: { confirm: true, expressions: [{ kind: 'linear-key' }] },
  '1password': { confirm: true, expressions: [{ kind: '1password-token' }] },
};

/** Characters a `word` part never holds (`redact.ts`: parts end at whitespace and quotes). */
const BREAKS = [' ', '\t', '\n', '\r', '"', "'", '`'];

/**
 * Whether an expression can match a character that ends a word part, outside look-arounds (which read past a
 * part's edge the same as in the whole string: a part ends where a whitespace or a quote is).
 */
function spansWords(expression, RegExpParser) {
  const flags = expression.flags.replace(/[gy]/g, '');
  const pattern = new RegExpParser().parsePattern(expression.source, undefined, undefined, {
    unicode: expression.flags.includes('u'),
    unicodeSets: expression.flags.includes('v'),
  });
  let spans = false;
  const visit = (node) => {
    if (spans || node.type === 'Assertion') return;
    if (node.type === 'Character' || node.type === 'CharacterSet' || node.type === 'CharacterClass') {
      const one = new RegExp(`^${node.raw}$`, flags);
      if (BREAKS.some((c) => one.test(c))) spans = true;
      return;
    }
    for (const key of ['alternatives', 'elements']) for (const child of node[key] ?? []) visit(child);
    if (node.element) visit(node.element);
  };
  visit(pattern);
  return spans;
}

/** The source with capture group `n` (1-based, as numbered in the source) named `secret`. */
function nameGroup(expression, n, RegExpParser) {
  const pattern = new RegExpParser().parsePattern(expression.source, undefined, undefined, {
    unicode: expression.flags.includes('u'),
  });
  const groups = [];
  const visit = (node) => {
    if (node.type === 'CapturingGroup') groups.push(node);
    for (const key of ['alternatives', 'elements']) for (const child of node[key] ?? []) visit(child);
    if (node.element) visit(node.element);
  };
  visit(pattern);
  groups.sort((a, b) => a.start - b.start);
  const group = groups[n - 1];
  if (group === undefined || group.name !== null) throw new Error(`${expression}: no unnamed group ${n}`);
  return `${expression.source.slice(0, group.start + 1)}?<secret>${expression.source.slice(group.start + 1)}`;
}

/**
 * The module `preset-shapes.ts` derived from the installed preset, as its text.
 *
 * @param presetExpressions `preset-rules.ts`'s, from the build or the sources (the test's).
 * @param requiredLiterals `literals.ts`'s.
 */
export function derive(presetExpressions, requiredLiterals) {
  const requireCli = createRequire(join(cli, 'package.json'));
  const { RegExpParser } = requireCli('@eslint-community/regexpp');
  const options = Object.fromEntries(Object.entries(ADAPTER).map(([rule, a]) => [rule, a.options ?? {}]));
  const expressions = presetExpressions(options);
  const out = [];
  for (const [rule, adapter] of Object.entries(ADAPTER)) {
    const found = expressions[rule];
    if (found === undefined || found.length !== adapter.expressions.length)
      throw new Error(
        `${rule}: ${found?.length ?? 0} expressions, the adapter knows ${adapter.expressions.length}`,
      );
    const patterns = [];
    for (const [i, use] of adapter.expressions.entries()) {
      if (use.kind === null) continue;
      const expression = found[i];
      const keywords = requiredLiterals(expression);
      if (keywords === null) throw new Error(`${rule}: ${expression} has no keywords`);
      const literal =
        use.secret === undefined
          ? String(expression)
          : String(new RegExp(nameGroup(expression, use.secret, RegExpParser), expression.flags));
      const fields = [
        `kind: ${JSON.stringify(use.kind)}`,
        `keywords: ${JSON.stringify(keywords.words)}`,
        ...(keywords.anyCase ? ['anyCase: true'] : []),
        `scope: ${JSON.stringify(spansWords(expression, RegExpParser) ? 'text' : 'word')}`,
        `pattern: ${literal}`,
        ...(adapter.confirm ? [`valid: confirmedBy(${JSON.stringify(rule)})`] : []),
      ];
      patterns.push(`    { ${fields.join(', ')} },`);
    }
    out.push(`  ${JSON.stringify(rule)}: [\n${patterns.join('\n')}\n  ],`);
  }
  const derived = Object.keys(ADAPTER).filter((rule) => ADAPTER[rule].handler !== true);
  const presetPackage = requireCli.resolve('@secretlint/secretlint-rule-preset-recommend/package.json');
  const { version } = JSON.parse(readFileSync(presetPackage, 'utf8'));
  return `/**
 * GENERATED by \`node scripts/privacy/preset-shapes.mjs\`: do not edit (the adapter is documented there). The vendor
 * shapes of @secretlint/secretlint-rule-preset-recommend ${version} as cctrail's patterns, by the preset's rule.
 */

import { confirmedBy } from './preset-rules.js';
import type { SecretPattern } from './rule.js';

/** The patterns derived from each rule of the preset (its handler is not run again: \`PRESET_DERIVED\`). */
// biome-ignore format: generated, one expression a line
export const PRESET_SHAPES = {
${out.join('\n')}
} as const satisfies Readonly<Record<string, readonly SecretPattern[]>>;

/** The preset's rules whose expressions all run as cctrail's patterns above: redaction does not run their handlers. */
// biome-ignore format: generated
export const PRESET_DERIVED: ReadonlySet<string> = new Set(${JSON.stringify(derived)});
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = join(cli, 'dist/privacy');
  const { presetExpressions } = await import(pathToFileURL(join(dist, 'preset-rules.js')).href);
  const { requiredLiterals } = await import(pathToFileURL(join(dist, 'literals.js')).href);
  writeFileSync(OUT, derive(presetExpressions, requiredLiterals));
  console.error(`${OUT}: ${Object.keys(ADAPTER).length} rules of the preset`);
}
