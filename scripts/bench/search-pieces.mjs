// CPU of the search index's two halves on real sessions, old code against new, run alternately in one process:
// each session's piece made (`searchPiece`) and cached in its pack (`storeSearchPiece`), then the pieces merged into
// the index's files as a cold build does (`planSearchFiles` and its `save`); the pieces and the index's files compared.
//
//   node scripts/bench/search-pieces.mjs CACHE_REPORT_DIR [--old DIR] [--sessions N] [--runs N]
//
// CACHE_REPORT_DIR is a report's cache folder (`…/reports/<id>`, its `archive/sessions/*/*.json.br`); --old a built
// checkout (default /work/base-main) whose `apps/report/dist` is compared with this one's.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    old: { type: 'string', default: '/work/base-main' },
    sessions: { type: 'string', default: '150' },
    runs: { type: 'string', default: '5' },
  },
});
const here = resolve(import.meta.dirname, '..', '..');
const dist = (root) => join(root, 'apps/report/dist');
const load = await import(join(dist(here), 'build/load.js'));
const builds = [
  ['old', values.old],
  ['new', here],
].map(([name, root]) => ({ name, root }));
for (const b of builds) {
  b.text = await import(join(dist(b.root), 'views/search/search-text.js'));
  b.pieces = await import(join(dist(b.root), 'build/search-pieces.js'));
  b.packs = await import(join(dist(b.root), 'build/packs.js'));
}
const folder = join(positionals[0], 'archive', 'sessions');
const files = readdirSync(folder)
  .flatMap((p) => readdirSync(join(folder, p)).map((f) => join(folder, p, f)))
  .sort()
  .slice(0, Number(values.sessions));
const sessions = [];
for (const f of files) {
  const loaded = load.loadSession(f);
  if (loaded.ok) sessions.push(loaded.value);
}
// One project a session, its slug and key as the build makes them; started in the order listed.
const manifest = {
  projects: sessions.map((_, i) => ({
    slug: `p${i}`,
    sessions: [{ key: `k${i}`, slug: 'x', summary: { startedAt: new Date(i * 60_000).toISOString() } }],
  })),
};
const locate = (e) => ({ route: 's/p/x/', anchor: `e-${e.uuid}` });
const cpu = (f) => {
  const start = process.cpuUsage();
  const out = f();
  const used = process.cpuUsage(start);
  return { out, ms: (used.user + used.system) / 1000 };
};
const times = new Map(builds.map((b) => [b.name, { piece: [], store: [], merge: [] }]));
const outputs = new Map();
const pieces = new Map();
for (let run = 0; run < Number(values.runs); run++) {
  for (const b of run % 2 ? [...builds].reverse() : builds) {
    const cache = mkdtempSync(join(tmpdir(), `search-pieces-${b.name}-`));
    const made = cpu(() => sessions.map((s, i) => b.text.searchPiece(s, locate, `s/p${i}/x/`)));
    const stored = cpu(() =>
      made.out.forEach((piece, i) => {
        const p = manifest.projects[i];
        const pack = new b.packs.PackWriter(cache, p.sessions[0].key);
        b.pieces.storeSearchPiece(pack, b.pieces.searchPieceKey(p.slug, p.sessions[0]), piece);
        pack.commit();
      }),
    );
    pieces.set(b.name, made.out);
    const merged = cpu(() => {
      const plan = b.pieces.planSearchFiles(manifest, cache);
      plan.save();
      return plan;
    });
    rmSync(cache, { recursive: true, force: true });
    times.get(b.name).piece.push(made.ms);
    times.get(b.name).store.push(stored.ms);
    times.get(b.name).merge.push(merged.ms);
    outputs.set(b.name, merged.out);
  }
}
const median = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
const range = (list) =>
  `${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)} ms (median ${median(list).toFixed(0)})`;
const entries = sessions.reduce((a, s) => a + s.entries.length, 0);
console.log(`${sessions.length} sessions, ${entries} entries`);
for (const [name, t] of times)
  console.log(
    `${name}: pieces made ${range(t.piece)}, stored ${range(t.store)}, merged and saved ${range(t.merge)}`,
  );
const samePieces = pieces.get('old').every((p, i) => p === pieces.get('new')[i]);
console.log(`pieces: ${samePieces ? 'identical' : 'DIFFERENT'}`);
const [a, b] = [outputs.get('old'), outputs.get('new')];
const same =
  JSON.stringify(a.meta) === JSON.stringify(b.meta) &&
  a.files.length === b.files.length &&
  a.files.every((f, i) => f.name === b.files[i].name && f.text === b.files[i].text);
console.log(`index files: ${a.files.length}, ${same ? 'identical' : 'DIFFERENT'}`);
