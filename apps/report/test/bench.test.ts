import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { buildReport } from '../src/index.js';
import type { Entry, Session } from '../src/lib/model.js';
import { claude, emptySession, entry, result, summaryOf, text, usage } from './helpers/demo.js';

function bigSession(id: string, n: number, seed: number): Session {
  const es: Entry[] = [];
  let parent: string | null = null;
  let epoch = 0;
  const comps: Session['compactions'] = [];
  const scs: Session['sidechains'] = [];
  const tools: Session['tools'] = [];
  let ctx = 10_000;
  for (let i = 0; es.length < n; i++) {
    const k = i % 8;
    const u = `${id}-${i}`;
    if (i > 0 && i % 400 === 0) {
      comps.push({
        uuid: u,
        kind: 'full',
        trigger: 'auto',
        form: 'boundary',
        timestamp: null,
        preTokens: ctx,
        postTokens: 20_000,
        logicalParent: parent,
        logicalParentResolution: 'in-file',
        summaryUuid: null,
        sidechain: null,
        epoch: epoch + 1,
        source: { file: 'x', line: 1, offset: 0, length: 1 },
        complete: true,
      });
      epoch++;
      ctx = 20_000;
      es.push(
        entry(u, null, { kind: 'compact-boundary', actor: 'system', epoch, logicalParentUuid: parent }),
      );
      parent = u;
      continue;
    }
    if (k === 0)
      es.push(
        entry(u, parent, {
          epoch,
          content: [text(`Please look at module ${i} and fix **the bug** in \`file${i}.ts\`. Seed ${seed}`)],
        }),
      );
    else if (k % 2 === 1) {
      ctx += 3000;
      const tid = `t-${u}`;
      const name = k === 3 ? 'Bash' : 'Read';
      es.push(
        claude(
          u,
          parent,
          [
            {
              type: 'tool_use',
              id: tid,
              name,
              input:
                name === 'Bash'
                  ? { command: `pnpm test --filter pkg${i}` }
                  : { file_path: `/repo/src/file${i % 37}.ts` },
            },
          ],
          usage(10, ctx, 3000),
          `m-${u}`,
          { epoch },
        ),
      );
      tools.push({
        id: tid,
        name,
        callUuid: u,
        resultUuid: `${u}r`,
        status: i % 23 === 0 ? 'error' : 'ok',
        durationMs: 100,
        batch: null,
        sidechain: null,
      });
      parent = u;
      const out = Array.from(
        { length: 30 + (i % 50) },
        (_, j) => `  ${j}: const value${j} = compute(${j}, "${id}"); // some code line here`,
      ).join('\n');
      es.push(result(`${u}r`, u, tid, out, i % 23 === 0, { epoch }));
      parent = `${u}r`;
      continue;
    } else
      es.push(
        claude(
          u,
          parent,
          [
            text(
              `Here is the change:\n\n\`\`\`ts\nexport function f${i}(x: number): number {\n  return x * ${i};\n}\n\`\`\`\n\nAnd a list:\n- one\n- two`,
            ),
          ],
          usage(10, ctx, 500),
          `m-${u}`,
          { epoch },
        ),
      );
    parent = u;
    if (i % 97 === 5) {
      const sid = `agent-${u}`;
      const root = `${u}-s0`;
      let p2 = u;
      for (let j = 0; j < 20; j++) {
        const su = `${u}-s${j}`;
        es.push(
          j % 2 === 0
            ? entry(su, p2, { actor: 'claude-as-user', sidechain: sid, content: [text(`sub task ${j}`)] })
            : claude(su, p2, [text(`sub answer ${j}`)], usage(5, 1000, 100), `ms-${su}`, {
                actor: 'subagent',
                sidechain: sid,
              }),
        );
        p2 = su;
      }
      scs.push({
        id: sid,
        agentId: u,
        agentType: ['Explore', 'general-purpose', 'code-reviewer'][i % 3] as string,
        description: `Investigate part ${i}`,
        role: 'task',
        storage: 'subagents',
        file: 'x',
        spawn: null,
        link: 'agent-id',
        depth: 1,
        parentSidechain: null,
        parallelGroup: null,
        status: 'completed',
        rootUuid: root,
        entries: 20,
        startedAt: null,
        endedAt: null,
        usage: usage(50, 10000, 1000, 1000),
      });
    }
  }
  const s = emptySession(id, es);
  s.compactions = comps;
  s.sidechains = scs;
  s.tools = tools;
  s.title = `Session ${id}: work on the thing number ${seed}`;
  s.usage.total = usage(1000 * n, 50_000 * n, 3000 * n, 200 * n);
  s.startedAt = new Date(Date.parse('2026-01-01T00:00:00Z') + seed * 3_600_000 * 5).toISOString();
  return s;
}

/**
 * Scale benchmark, skipped unless CCTRAIL_BENCH is set: generates an archive of BENCH_N synthetic sessions
 * (default 550, about 700 MB) in /tmp/bench-data, builds it, and with BENCH_TOUCH rebuilds after changing one.
 *   CCTRAIL_BENCH=1 BENCH_TOUCH=1 npx vitest run test/bench.test.ts
 */
it.skipIf(!process.env.CCTRAIL_BENCH)(
  'builds a large archive',
  async () => {
    const data = '/tmp/bench-data';
    const N = Number(process.env.BENCH_N ?? 550);
    if (!existsSync(join(data, 'index.json')) || process.env.BENCH_REGEN) {
      rmSync(data, { recursive: true, force: true });
      mkdirSync(data, { recursive: true });
      const sizes = (i: number) => (i % 50 === 0 ? 4000 : i % 7 === 0 ? 1200 : 150 + ((i * 37) % 500));
      const projects = Array.from({ length: 20 }, (_, p) => ({
        slug: `proj-${p}`,
        id: `proj-${p}`,
        cwd: `/home/dev/proj-${p}`,
        sessions: [] as ReturnType<typeof summaryOf>[],
      }));
      for (let i = 0; i < N; i++) {
        const s = bigSession(`sess-${i}`, sizes(i), i);
        const p = projects[i % 20] as (typeof projects)[0];
        mkdirSync(join(data, p.id), { recursive: true });
        const file = `${p.id}/${s.id}.json`;
        writeFileSync(join(data, file), JSON.stringify(s));
        p.sessions.push(summaryOf(s, file));
      }
      writeFileSync(
        join(data, 'index.json'),
        JSON.stringify({
          schemaVersion: 1,
          generator: { name: 'cctrail', version: 'bench' },
          projects,
          usage: usage(0),
        }),
      );
    }
    if (process.env.BENCH_ONLY_GEN) return;
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 100);
    const t = Date.now();
    const r = await buildReport({ dataDir: data, outDir: '/tmp/bench-out', log: console.log });
    console.log('build', Date.now() - t, 'ms', r.pages, 'pages', 'peak rss MB', Math.round(peak / 1e6));
    if (process.env.BENCH_TOUCH) {
      const f = join(data, 'proj-3', 'sess-3.json');
      const s = JSON.parse(readFileSync(f, 'utf8'));
      s.title = `changed ${Date.now()}`;
      writeFileSync(f, JSON.stringify(s));
      const t2 = Date.now();
      await buildReport({ dataDir: data, outDir: '/tmp/bench-out', log: console.log });
      console.log('rebuild', Date.now() - t2, 'ms', 'peak rss MB', Math.round(peak / 1e6));
    }
    clearInterval(timer);
  },
  900_000,
);
