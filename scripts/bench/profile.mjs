// The shape of an archive, as ../shared/corpus/ARCHIVE-PROFILE.md gives it: lines per MiB, line and file size
// percentiles, and the lines and bytes of each record type. Lines and types count every `.jsonl` file below the
// folder (sessions and agent files); file sizes and lengths are those of session files (not `agent-*`), as in
// the real archive's profile, and a last line gives the agent files.
//
//   node scripts/bench/profile.mjs FOLDER

import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The kind of a line: `assistant:<block type>`, `user:tool_result`, `progress:<data.type>`, `system:<subtype>`… */
export function kindOf(line) {
  let record;
  try {
    record = JSON.parse(line);
  } catch {
    return '(invalid)';
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return '(invalid)';
  const { type } = record;
  if (type === 'progress') return `progress:${record.data?.type}`;
  if (type === 'system' && record.subtype) return `system:${record.subtype}`;
  const content = record.message?.content;
  if (type === 'assistant' && Array.isArray(content)) return `assistant:${content[0]?.type}`;
  if (type === 'user' && Array.isArray(content) && content.some((b) => b?.type === 'tool_result'))
    return 'user:tool_result';
  return String(type);
}

function jsonlFiles(dir) {
  const files = [];
  const stack = [dir];
  while (stack.length) {
    const at = stack.pop();
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.name.endsWith('.jsonl')) files.push({ path, agent: entry.name.startsWith('agent-') });
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function eachLine(path, fn) {
  let pending = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    for (const line of lines) fn(line);
  }
  if (pending) fn(pending);
}

/** Reads every `.jsonl` file below `dir` and measures it. */
export async function profileArchive(dir) {
  const lineBytes = [];
  const files = [];
  const kinds = new Map();
  for (const file of jsonlFiles(dir)) {
    let lines = 0;
    let bytes = 0;
    await eachLine(file.path, (line) => {
      if (!line.trim()) return;
      const size = Buffer.byteLength(line);
      lines += 1;
      bytes += size + 1;
      lineBytes.push(size);
      const kind = kindOf(line);
      const sum = kinds.get(kind) ?? { lines: 0, bytes: 0 };
      sum.lines += 1;
      sum.bytes += size;
      kinds.set(kind, sum);
    });
    files.push({ ...file, lines, bytes });
  }
  return { lineBytes, files, kinds };
}

/** The value at quantile `q` of sorted numbers (nearest rank). */
function at(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;
}

const byNumber = (a, b) => a - b;
const mib = (bytes) => (bytes / 1048576).toFixed(1);

/** The profile as ARCHIVE-PROFILE.md prints it. */
export function formatProfile({ lineBytes, files, kinds }) {
  const lines = lineBytes.length;
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  const sizes = [...lineBytes].sort(byNumber);
  const sessions = files.filter((f) => !f.agent);
  const fileBytes = sessions.map((f) => f.bytes).sort(byNumber);
  const fileLines = sessions.map((f) => f.lines).sort(byNumber);
  const agents = files.filter((f) => f.agent);
  const rows = [...kinds].sort((a, b) => b[1].lines - a[1].lines || (a[0] < b[0] ? -1 : 1));
  return [
    `files ${sessions.length}, non-blank lines ${lines}, bytes ${mib(bytes)} MiB, lines per MiB ${Math.round(lines / (bytes / 1048576))}`,
    `line bytes: p10 ${at(sizes, 0.1)} p50 ${at(sizes, 0.5)} p90 ${at(sizes, 0.9)} p99 ${at(sizes, 0.99)} max ${sizes.at(-1) ?? 0}`,
    `file bytes: p10 ${at(fileBytes, 0.1)} p50 ${at(fileBytes, 0.5)} p90 ${at(fileBytes, 0.9)} max ${fileBytes.at(-1) ?? 0}; file lines p50 ${at(fileLines, 0.5)} p90 ${at(fileLines, 0.9)} max ${fileLines.at(-1) ?? 0}`,
    'type | lines | share of lines | MiB',
    ...rows.map(
      ([kind, s]) => `${kind} | ${s.lines} | ${((s.lines / lines) * 100).toFixed(1)} % | ${mib(s.bytes)}`,
    ),
    `agent files ${agents.length} (${agents.reduce((n, f) => n + f.lines, 0)} lines, ${mib(agents.reduce((n, f) => n + f.bytes, 0))} MiB) besides those`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: profile.mjs FOLDER');
    process.exit(2);
  }
  console.log(formatProfile(await profileArchive(dir)));
}
