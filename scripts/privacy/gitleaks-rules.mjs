// Converts gitleaks' default rules (its `config/gitleaks.toml`, MIT) into cctrail's generated rule module,
// `packages/cli/src/privacy/gitleaks-rules.ts`: each rule's id, keywords, regular expression (Go → JavaScript,
// `go-regex.mjs`), entropy threshold, secret group, allowlists, and the longest text a match can span (so that
// the rule runs only on the part of a string around its keywords). Rules that cannot run are listed on stderr
// and in the module's header, with the reason; none is dropped silently.
//
//   node scripts/privacy/gitleaks-rules.mjs path/to/gitleaks.toml [--version "<commit> (<tag>, <date>)"]
//     [--license path/to/LICENSE]

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'smol-toml';
import { jsRegex } from './go-regex.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = join(root, 'packages/cli/src/privacy/gitleaks-rules.ts');
const { RegExpParser } = createRequire(join(root, 'packages/cli/package.json'))('@eslint-community/regexpp');

/**
 * Rules left out on purpose, with the reason. `generic-api-key` selects on `key`, `api`, `auth`, `access` and
 * `token`, which most transcript strings hold; cctrail's own assignment rules cover secrets written next to
 * their names.
 */
const LEFT_OUT = {
  'generic-api-key':
    'keywords `key`, `api`, `auth`, `access`, `token` select most strings; cctrail’s assignment rules cover it',
};

/**
 * A cheap check where a keyword that ordinary words hold ends (`ey` in `key`, `sk` in `task`): the characters
 * every match has right after it, as a sticky expression; the rule runs only where it passes.
 */
const AFTER_KEYWORD = {
  jwt: { ey: '[a-zA-Z0-9]{17}' },
  'twilio-api-key': { sk: '[0-9a-fA-F]{32}' },
  'vault-service-token': { 's.': '[a-zA-Z0-9]{24}' },
  'azure-ad-client-secret': { 'q~': '[a-zA-Z0-9_~.-]{31}' },
  'octopus-deploy-api-key': { 'api-': '[A-Z0-9]{26}' },
  'harness-api-key': { 'pat.': '[a-zA-Z0-9_-]{22}\\.', 'sat.': '[a-zA-Z0-9_-]{22}\\.' },
  'authress-service-client-access-key': { sc_: '[a-zA-Z0-9]{5}', ext_: '[a-zA-Z0-9]{5}' },
};

// The most characters a match can span before the rule runs on the whole rest of a string instead.
const LONGEST_WINDOW = 4096;

/** The most characters a match of an expression can span (Infinity when unbounded). */
function longest(source) {
  const pattern = new RegExpParser().parsePattern(source);
  const of = (node) => {
    switch (node.type) {
      case 'Pattern':
      case 'Group':
      case 'CapturingGroup':
        return Math.max(...node.alternatives.map(of));
      case 'Alternative':
        return node.elements.reduce((sum, element) => sum + of(element), 0);
      case 'Quantifier':
        return node.max === 0 ? 0 : of(node.element) * node.max;
      case 'Assertion':
        return 0;
      case 'Backreference':
        return Infinity;
      default:
        return 1;
    }
  };
  return of(pattern);
}

/** A list of regular expressions, converted. */
const regexes = (list = []) => list.map(jsRegex);

/** One allowlist, converted; null when it only names paths (a transcript string has none). */
function allowlist(list) {
  const regexTarget = list.regexTarget ?? 'secret';
  const out = {
    and: list.condition === 'AND',
    target: regexTarget,
    regexes: regexes(list.regexes),
    stopwords: list.stopwords ?? [],
  };
  if (out.regexes.length === 0 && out.stopwords.length === 0) return null;
  // With AND, a condition on paths never holds for a transcript string.
  if (out.and && (list.paths ?? []).length > 0) return null;
  return out;
}

// What most rules say ends a secret: a quote, whitespace, `;`, an escape, the end. In a transcript a token also
// ends a path component or a URL's part (`/home/dev/EAAA…/config.env`, `?key=…&x=1`): those ends are added.
const SECRET_END = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;
const SECRET_END_IN_TRANSCRIPTS = String.raw`(?:[\x60'"\s;/,)}\]>&|]|\\[nr]|$)`;

/** A rule, converted, or the reason it cannot be. */
function convert(rule) {
  if (LEFT_OUT[rule.id]) return { reason: LEFT_OUT[rule.id] };
  if (!rule.regex) return { reason: 'no regex (a rule on file names only)' };
  if (!rule.keywords || rule.keywords.length === 0) return { reason: 'no keywords' };
  let source;
  try {
    source = jsRegex(rule.regex.replaceAll(SECRET_END, SECRET_END_IN_TRANSCRIPTS));
  } catch (error) {
    return { reason: `regex: ${error.message}` };
  }
  const out = {
    id: rule.id,
    keywords: rule.keywords.map((k) => k.toLowerCase()),
    regex: source,
    reach: Math.min(longest(source), LONGEST_WINDOW + 1),
  };
  if (rule.entropy) out.entropy = rule.entropy;
  if (rule.secretGroup) out.group = rule.secretGroup;
  if (AFTER_KEYWORD[rule.id]) out.after = AFTER_KEYWORD[rule.id];
  const lists = (rule.allowlists ?? []).map(allowlist).filter(Boolean);
  if (lists.length > 0) out.allow = lists;
  return { rule: out };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { version: { type: 'string' }, license: { type: 'string' } },
});
const tomlPath = positionals[0];
if (!tomlPath) {
  console.error(
    'usage: node scripts/privacy/gitleaks-rules.mjs path/to/gitleaks.toml [--version V] [--license F]',
  );
  process.exit(2);
}
const folder = dirname(resolve(tomlPath));
const version = (values.version ?? readFileSync(join(folder, 'VERSION'), 'utf8')).trim();
const license = readFileSync(values.license ?? join(folder, 'LICENSE'), 'utf8').trim();
const config = parse(readFileSync(tomlPath, 'utf8'));
const converted = [];
const skipped = [];
for (const rule of config.rules) {
  const result = convert(rule);
  if (result.rule) converted.push(result.rule);
  else skipped.push(`${rule.id}: ${result.reason}`);
}
const global = { regexes: regexes(config.allowlist?.regexes), stopwords: config.allowlist?.stopwords ?? [] };

const comment = (text) =>
  text
    .split('\n')
    .map((line) => ` * ${line}`.trimEnd())
    .join('\n');
const module = `/**
 * GENERATED by \`node scripts/privacy/gitleaks-rules.mjs <gitleaks.toml>\`: do not edit (see the privacy README).
 * gitleaks' default rules, ${version}: ${converted.length} of ${config.rules.length} rules.
 * Not converted:
${comment(skipped.map((s) => `- ${s}`).join('\n'))}
 *
${comment(license)}
 */

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: gitleaks' expressions match \${…} as written
import type { GitleaksAllowlist, GitleaksRule } from './gitleaks-rule.js';

/** gitleaks' global allowlist: what is never a secret (placeholders, paths, stopwords). */
// biome-ignore format: generated
export const GITLEAKS_ALLOWLIST: GitleaksAllowlist = ${JSON.stringify({ and: false, target: 'secret', ...global })};

/** gitleaks' rules, in its order. */
// biome-ignore format: generated, one rule a line
export const GITLEAKS_RULES: readonly GitleaksRule[] = [
${converted.map((rule) => `  ${JSON.stringify(rule)},`).join('\n')}
];
`;
writeFileSync(OUT, module);
console.error(`${converted.length} rules written to ${OUT}; not converted (${skipped.length}):`);
for (const line of skipped) console.error(`  ${line}`);
