// Deterministic generator of synthetic Claude Code archives (following ../shared/FORMAT.md, 2.1.x era), in two
// profiles. `calibrated` (the default) is shaped like a real archive (../shared/corpus/ARCHIVE-PROFILE.md: lines
// per MiB, line sizes, the mix of record types and their bytes, session lengths, agent files, a few
// non-transcript files among the transcripts); `legacy` is the benchmark's first shape (few, large lines: 94 % of
// the bytes in tool results). The same profile, seed and size always give the same bytes.
//
//   node scripts/bench/generate.mjs OUT_DIR --sessions 550 --total-mb 700 [--seed 1] [--profile legacy]
//   node scripts/bench/generate.mjs OUT_DIR --sessions 1 --total-mb 256

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCalibratedSession } from './calibrated-session.mjs';
import { writeLegacySession } from './legacy-session.mjs';
import { prng, textPool, uuidFrom } from './random.mjs';

/** Changes whenever the same options would give other bytes: datasets made by another version are made again. */
export const GENERATOR_VERSION = 5;

/** The profiles `generateCorpus` knows. */
export const PROFILES = ['calibrated', 'legacy'];

/**
 * Session sizes of the real archive, in bytes, by quantile (file bytes p10 128 KB, p50 919 KB, p90 3.1 MB, max
 * 4.2 MB); sizes between two points are interpolated on a log scale.
 */
const SIZE_QUANTILES = [
  [0, 6000],
  [0.1, 128276],
  [0.5, 919174],
  [0.9, 3118872],
  [1, 4183578],
];

function sizeAt(u) {
  for (let i = 1; i < SIZE_QUANTILES.length; i++) {
    const [q1, s1] = SIZE_QUANTILES[i];
    const [q0, s0] = SIZE_QUANTILES[i - 1];
    if (u <= q1) return s0 * (s1 / s0) ** ((u - q0) / (q1 - q0));
  }
  return SIZE_QUANTILES.at(-1)[1];
}

/** Relative weights of the sessions' sizes: real quantiles for `calibrated`, a cubic skew for `legacy`. */
function sessionWeights(random, sessions, profile) {
  if (profile === 'legacy') return Array.from({ length: sessions }, () => 0.05 + random() ** 3);
  // Stratified draws, so that even a small archive spans the real distribution.
  const weights = Array.from({ length: sessions }, (_, i) => sizeAt((i + random()) / sessions));
  for (let i = weights.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [weights[i], weights[j]] = [weights[j], weights[i]];
  }
  return weights;
}

/**
 * A non-transcript JSON file among the transcripts (pretty-printed, so every line is invalid JSONL), as real
 * archives have (tool configuration and checkpoint metadata saved with a `.jsonl` name).
 */
function writeStrayFile(dir, random, index) {
  const record = {
    checkpoint: uuidFrom(random),
    created: new Date(Date.parse('2026-01-05T09:00:00Z') + index * 3600000).toISOString(),
    files: Array.from({ length: 45 }, (_, i) => ({
      path: `src/module${i}.ts`,
      lines: 40 + i,
      hash: uuidFrom(random),
    })),
  };
  writeFileSync(join(dir, `checkpoint-${index}.jsonl`), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * Writes a projects folder: `sessions` sessions spread over a few projects, `totalMb` in all, in the given profile.
 * @returns the bytes written and, for the calibrated profile, the agent runs and agent files.
 */
export async function generateCorpus(outDir, { sessions, totalMb, seed = 1, profile = 'calibrated' }) {
  if (!PROFILES.includes(profile)) throw new Error(`unknown profile ${profile} (${PROFILES.join(', ')})`);
  const random = prng(seed);
  const pool = textPool(prng(seed + 1), 2 * 1024 * 1024);
  const weights = sessionWeights(random, sessions, profile);
  const sum = weights.reduce((a, b) => a + b, 0);
  const projects = Math.max(1, Math.min(12, Math.ceil(sessions / 40)));
  const totals = { bytes: 0, agents: 0, agentFiles: 0 };
  for (let i = 0; i < sessions; i++) {
    const name = `app${i % projects}`;
    const project = join(
      outDir,
      profile === 'legacy' ? `-home-dev-project-${i % projects}` : `-home-dev-projects-${name}`,
    );
    mkdirSync(project, { recursive: true });
    const id = uuidFrom(random);
    const bytes = Math.floor((weights[i] / sum) * totalMb * 1e6);
    const written =
      profile === 'legacy'
        ? await writeLegacySession(project, id, bytes, seed * 100003 + i, pool)
        : await writeCalibratedSession(project, id, bytes, seed * 100003 + i, pool, name);
    totals.bytes += written.bytes;
    totals.agents += written.agents;
    totals.agentFiles += written.agentFiles ?? written.agents;
    // Six stray files in 552 real ones: one after every 92nd session.
    if (profile === 'calibrated' && i % 92 === 91) writeStrayFile(project, random, i);
  }
  return totals;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [out, ...rest] = process.argv.slice(2);
  const opt = (name, fallback) => {
    const at = rest.indexOf(`--${name}`);
    return at >= 0 ? rest[at + 1] : fallback;
  };
  if (!out) {
    console.error(
      'usage: generate.mjs OUT_DIR --sessions N --total-mb MB [--seed S] [--profile calibrated|legacy]',
    );
    process.exit(2);
  }
  const started = performance.now();
  const { bytes, agents, agentFiles } = await generateCorpus(out, {
    sessions: Number(opt('sessions', 10)),
    totalMb: Number(opt('total-mb', 50)),
    seed: Number(opt('seed', 1)),
    profile: opt('profile', 'calibrated'),
  });
  console.error(
    `wrote ${(bytes / 1e6).toFixed(1)} MB (${agents} agent runs, ${agentFiles} agent files) in ${((performance.now() - started) / 1000).toFixed(1)} s to ${out}`,
  );
}
