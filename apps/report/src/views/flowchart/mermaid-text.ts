import { wellFormed } from '../html/html.js';
import type { Compaction, Entry, Sidechain } from '../model.js';
import type { FlowKind, FlowNode } from './mermaid-story.js';

/**
 * The last steps of the flowchart (`mermaid.ts`): each node's label and the Mermaid text. Labels keep their
 * punctuation: every character Mermaid could read as syntax is written as an entity code (`#quot;`, `#35;`),
 * so no label can close its quotes, start a directive or add markup. Node ids are ours.
 */

/** Characters written as Mermaid entity codes inside a quoted label. */
const ENTITIES: Record<string, string> = {
  '"': '#quot;',
  '#': '#35;',
  '%': '#37;',
  '&': '#amp;',
  '<': '#lt;',
  '>': '#gt;',
  '`': '#96;',
  '\\': '#92;',
  '{': '#123;',
  '}': '#125;',
  '|': '#124;',
};

/** One line of plain text, at most `max` characters, cut at a word with an ellipsis. */
export function clip(text: string, max = 48): string {
  const line = wellFormed(text)
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...line];
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:·-]+$/u, '')}…`;
}

/** A label for a quoted Mermaid string: clipped, then every syntax character escaped as an entity code. */
export function mermaidLabel(text: string, max = 48): string {
  return clip(text, max).replace(/["#%&<>`\\{}|]/g, (c) => ENTITIES[c] ?? c);
}

/** The first text of an entry, slash commands shown as typed (`/mcp args`), other markup tags removed. */
function saidText(e: Entry): string {
  for (const b of e.content) {
    if (b.type !== 'text') continue;
    const command = /<command-name>\s*([^<]*)<\/command-name>/.exec(b.text);
    if (command) {
      const args = /<command-args>([^<]*)<\/command-args>/.exec(b.text)?.[1]?.trim() ?? '';
      return `${command[1]!.trim()}${args ? ` ${args}` : ''}`;
    }
    const text = b.text.replace(/<\/?[a-z][\w-]*(?:\s[^<>]*)?>/gi, ' ').trim();
    if (text !== '') return text;
  }
  return '';
}

/** `1.2k` for large counts. */
export function short(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${short(n)} ${n === 1 ? one : many}`;
}

function toolsText(n: FlowNode): string {
  const tools = [...n.tools];
  return tools.length === 0 ? '' : tools.slice(0, 3).join(', ') + (tools.length > 3 ? ', …' : '');
}

/** The label of a node: what it is about, then its counts; never empty. */
export function nodeText(
  n: FlowNode,
  compactions: ReadonlyMap<string, Compaction>,
  sidechains: ReadonlyMap<string, Sidechain>,
): string {
  const errors = n.errors > 0 ? ` · ⚠ ${count(n.errors, 'error')}` : '';
  const entries = count(n.entries, 'entry', 'entries');
  switch (n.kind) {
    case 'compaction': {
      const c = compactions.get(n.first.uuid);
      const tokens =
        c && c.preTokens !== null
          ? c.postTokens !== null
            ? ` · ${short(c.preTokens)} → ${short(c.postTokens)} tokens`
            : ` · from ${short(c.preTokens)} tokens`
          : '';
      return `Compaction${c?.trigger ? ` (${c.trigger})` : ''}${tokens} · epoch ${n.epoch + 1} · ${entries}${errors}`;
    }
    case 'abandoned': {
      const said = clip(saidText(n.first), 36);
      const what = n.fork === 'retry' ? 'Retry: abandoned response' : 'Rewind: abandoned branch';
      const more = n.merged > 0 ? ` +${short(n.merged)} more` : '';
      return `${what}${more}${said ? ` · ${said}` : ''} · ${entries}${errors}`;
    }
    case 'sidechain': {
      const sc = sidechains.get(n.key ?? '');
      const type = clip(sc?.agentType ?? 'agent', 28);
      const about = sc?.description ? ` · ${clip(sc.description, 32)}` : '';
      const status = sc && (sc.status === 'error' || sc.status === 'missing') ? ` · ${sc.status}` : '';
      const more = n.merged > 0 ? ` +${count(n.merged, 'more agent')}` : '';
      return `${type}${about}${more}${status} · ${entries}${errors}`;
    }
    default: {
      const said = clip(saidText(n.first), 44) || clip(toolsText(n), 44) || n.first.kind;
      const tools = saidText(n.first) && n.tools.size > 0 ? ` · ${clip(toolsText(n), 24)}` : '';
      return `${said}${tools} · ${entries}${errors}`;
    }
  }
}

/** One drawn node of a chart: its id, class, label (plain text) and link. */
export interface ChartNode {
  id: string;
  kind: FlowKind;
  label: string;
  entries: number;
  href: string | null;
  errors: boolean;
}

/**
 * An edge of a chart: `dashed` for abandoned branches, `dotted` for fan-in and logical links, `gap` for a turn
 * that continues the one before it although its parent entry is not in the file.
 */
export interface ChartEdge {
  from: string;
  to: string;
  style: 'solid' | 'dashed' | 'dotted' | 'gap';
}

/** Node classes; app.js paints them with the page's `--flow-*` colours, so they follow the theme. */
const CLASSES = ['active', 'abandoned', 'sidechain', 'compaction', 'epoch', 'error'];

/** Longest label written into the chart (the node list keeps the whole label). */
const LABEL_MAX = 120;

/** The Mermaid text of a chart. Node classes are styled by the page's CSS, so colours follow its theme. */
export function chartText(nodes: readonly ChartNode[], edges: readonly ChartEdge[]): string {
  const lines = ['flowchart TD'];
  for (const n of nodes) {
    const label = mermaidLabel(n.label, LABEL_MAX);
    lines.push(
      n.kind === 'compaction'
        ? `  ${n.id}{{"${label}"}}:::${n.kind}`
        : n.kind === 'epoch'
          ? `  ${n.id}[["${label}"]]:::${n.kind}`
          : `  ${n.id}["${label}"]:::${n.kind}`,
    );
  }
  for (const e of edges)
    lines.push(
      e.style === 'solid'
        ? `  ${e.from} --> ${e.to}`
        : e.style === 'dashed'
          ? `  ${e.from} -.-> ${e.to}`
          : e.style === 'gap'
            ? `  ${e.from} -.->|continues after a gap| ${e.to}`
            : `  ${e.from} -.- ${e.to}`,
    );
  const failed = nodes.filter((n) => n.errors).map((n) => n.id);
  if (failed.length > 0) lines.push(`  class ${failed.join(',')} error`);
  for (const kind of CLASSES) lines.push(`  classDef ${kind} stroke-width:${kind === 'error' ? 2.5 : 1.5}px`);
  return lines.join('\n');
}
