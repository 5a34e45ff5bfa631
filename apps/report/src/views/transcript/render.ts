import { compactionTokensText } from '../charts/compaction-after.js';
import { formatDuration } from '../html/format.js';
import { formatSize, html, type SafeHtml, trusted } from '../html/html.js';
import { entryAnchor } from '../html/links.js';
import { renderMarkdown } from '../markdown/markdown.js';
import type { ContentBlock, Entry, ToolResultItem } from '../model.js';
import { isQuiet } from './cards.js';
import { renderCommandText } from './command-text.js';
import { isGitCommit, markCommitShas } from './commit-links.js';
import { renderNumbered, renderOutput } from './render-output.js';
import { spawnCard } from './spawn-card.js';
import { toolView } from './tool-views.js';
import { actorLabel, isFoldedResult, type TranscriptContext, toolSummary } from './transcript.js';

/**
 * Transcript HTML. Messages go through the markdown sanitizer; tool input and output, system lines and
 * anything else are escaped preformatted text; long outputs are cut with a `<details>` holding the rest up
 * to `FULL_OUTPUT_CAP`.
 */

/** Largest base64 payload shown as an inline image. */
const IMAGE_CAP = 4_000_000;
/** Image media types shown inline. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Links the transcript needs to other pages. */
export interface TranscriptLinks {
  /** Href of a sidechain's page, or null when it has none. */
  sidechain(id: string): string | null;
  /** Href of where an abandoned branch is shown (index into `Session.branches`): its page, or its anchor among alternatives. */
  branch(index: number): string;
}

/** An inline image from a base64 block, only for allowed media types and well-formed payloads. */
export function renderImage(mediaType: string | null, data: string | null, bytes: number): SafeHtml {
  const type = (mediaType ?? '').toLowerCase();
  const ok =
    (IMAGE_TYPES as readonly string[]).includes(type) &&
    typeof data === 'string' &&
    data.length > 0 &&
    data.length <= IMAGE_CAP &&
    /^[A-Za-z0-9+/]+={0,2}$/.test(data);
  if (!ok)
    return html`<p class="muted">[image${mediaType ? ` ${mediaType}` : ''}, ${formatSize(bytes)}, not shown]</p>`;
  return trusted(
    `<img class="shot" alt="image from the transcript" loading="lazy" src="data:${type};base64,${data}">`,
  );
}

function renderResultItems(items: readonly ToolResultItem[], tool?: string): SafeHtml {
  return html`${items.map((item) => {
    if (item.type === 'text') return tool === 'Read' ? renderNumbered(item.text) : renderOutput(item.text);
    if (item.type === 'image') return renderImage(item.mediaType, item.data, item.bytes);
    return renderOutput(safeJson(item.value));
  })}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A tool call's input: a list of its arguments (strings shown as they are, other values as JSON), or the
 * JSON of an input that is not a small object. Not highlighted: highlighting every call would dominate the
 * build time of large archives.
 */
function renderToolInput(input: unknown): SafeHtml {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const keys = Object.keys(input);
    if (keys.length > 0 && keys.length <= 16) {
      const i = input as Record<string, unknown>;
      return html`<dl class="args">${keys.map(
        (k) =>
          html`<dt>${k}</dt><dd>${renderOutput(typeof i[k] === 'string' ? (i[k] as string) : safeJson(i[k]), 'code')}</dd>`,
      )}</dl>`;
    }
  }
  return renderOutput(safeJson(input), 'code');
}

function renderToolUse(
  block: Extract<ContentBlock, { type: 'tool_use' }>,
  ctx: TranscriptContext,
  links: TranscriptLinks,
): SafeHtml {
  const call = ctx.tools.get(block.id);
  const result = ctx.results.get(block.id);
  const status = call?.status ?? (result ? (result.block.isError ? 'error' : 'ok') : 'missing-result');
  const sidechain = ctx.sidechainBySpawn.get(block.id);
  const summary = toolSummary(block.name, block.input);
  const statusLabel = status === 'error' ? 'error' : status === 'missing-result' ? 'no result' : '';
  const view = toolView(block.name, block.input);
  const command = block.name === 'Bash' ? (block.input as { command?: unknown }).command : undefined;
  const commits = typeof command === 'string' && isGitCommit(command);
  // The result has no id of its own: its entry keeps its anchor (folded, or shown where it is), ids stay unique.
  const output = result ? renderResultItems(result.block.content, block.name) : null;
  return html`<div class="tool${status === 'error' ? ' tool--error' : ''}${view ? ` tool--${block.name.toLowerCase()}` : ''}">
<details class="tool__call"${view?.open ? html` open` : ''}><summary><span class="tool__name">${block.name}</span> <span class="tool__sum">${summary}</span>${statusLabel ? html` <span class="badge badge--${status}">${statusLabel}</span>` : ''}${call?.durationMs != null ? html` <span class="muted">${formatDuration(call.durationMs)}</span>` : ''}</summary>${view ? view.body : renderToolInput(block.input)}</details>
${sidechain ? spawnCard(sidechain, links.sidechain(sidechain.id), ctx) : ''}
${result && output ? html`<div class="tool__result${result.block.isError ? ' is-error' : ''}">${result.block.isError ? html`<p class="badge badge--error">Error</p>` : ''}${commits ? markCommitShas(output) : output}</div>` : ''}
</div>`;
}

const MARKDOWN_ACTORS = new Set(['human', 'claude', 'subagent', 'claude-as-user']);

function renderBlock(
  entry: Entry,
  block: ContentBlock,
  ctx: TranscriptContext,
  links: TranscriptLinks,
): SafeHtml {
  switch (block.type) {
    case 'text':
      if (entry.isCompactSummary || entry.kind === 'compact-summary')
        return html`<details class="summary-block"><summary>Compaction summary (${formatSize(block.text.length)})</summary>${renderMarkdown(block.text)}</details>`;
      return (
        renderCommandText(block.text) ??
        (MARKDOWN_ACTORS.has(entry.actor) && entry.kind !== 'meta' && entry.kind !== 'command'
          ? html`<div class="md">${renderMarkdown(block.text)}</div>`
          : renderOutput(block.text, 'plain'))
      );
    case 'thinking':
      return html`<details class="thinking"><summary>Thinking <span class="muted">(${formatSize(block.thinking.length)})</span></summary><div class="md">${renderMarkdown(block.thinking)}</div></details>`;
    case 'tool_use':
      return renderToolUse(block, ctx, links);
    case 'tool_result':
      return html`<div class="tool__result${block.isError ? ' is-error' : ''}"><p class="muted">Result of a call not shown here${block.isError ? ' · error' : ''}</p>${renderResultItems(block.content)}</div>`;
    case 'image':
      return renderImage(block.mediaType, block.data, block.bytes);
    default:
      return html`<details class="unknown"><summary>Unknown content block</summary>${renderOutput(safeJson(block.value))}</details>`;
  }
}

/** A compaction boundary, as a separator with its figures. */
export function renderCompaction(entry: Entry, ctx: TranscriptContext): SafeHtml {
  const c = ctx.compactions.get(entry.uuid);
  const figures = c ? compactionTokensText(c, ctx.tokensAfter.get(entry.uuid)) : '';
  const tokens = figures ? ` · ${figures}` : '';
  const label =
    c?.kind === 'micro' || entry.kind === 'microcompact-boundary' ? 'Microcompaction' : 'Compaction';
  return html`<div class="compaction" id="${entryAnchor(entry.uuid)}" role="separator"><span>${label}${c?.trigger ? ` (${c.trigger})` : ''}${tokens}${c && c.kind === 'full' ? ` · epoch ${c.epoch + 1} starts` : ''}</span></div>`;
}

/** The blocks of an entry, as a card's body shows them. */
export function renderBlocks(entry: Entry, ctx: TranscriptContext, links: TranscriptLinks): SafeHtml {
  return html`${entry.content.map((b) => renderBlock(entry, b, ctx, links))}`;
}

/** The time an entry was written, as a `<time>` element (empty without a timestamp). */
function entryTime(entry: Entry): SafeHtml {
  return entry.timestamp
    ? html`<time datetime="${entry.timestamp}">${entry.timestamp.replace('T', ' ').slice(0, 19)}</time>`
    : html``;
}

/** Most branches a fork note links one by one (the others follow the last in order, `branch-places.ts`). */
const FORK_LINKS = 20;

/**
 * The note of a rewind at an entry: links to the abandoned branches that leave from it (empty when none), the
 * first `FORK_LINKS` by name, then one link to where the rest start.
 */
export function forkNote(entry: Entry, ctx: TranscriptContext, links: TranscriptLinks): SafeHtml {
  const branches = ctx.branchesByPoint.get(entry.uuid) ?? [];
  const named = branches.slice(0, FORK_LINKS);
  const next = branches[FORK_LINKS];
  const more =
    next === undefined
      ? ''
      : html`, and <a href="${links.branch(next)}">${(branches.length - FORK_LINKS).toLocaleString('en-US')} more from branch ${next + 1}</a>`;
  return branches.length > 0
    ? html`<aside class="fork"><strong>Rewind here:</strong> ${branches.length.toLocaleString('en-US')} abandoned branch${branches.length > 1 ? 'es' : ''} ${named.map((b, i) => html`${i > 0 ? ', ' : ''}<a href="${links.branch(b)}">branch ${b + 1}</a>`)}${more}</aside>`
    : html``;
}

/** A progress, hook or system record, folded: what it is, when, and its content when opened. */
export function renderQuiet(entry: Entry, ctx: TranscriptContext, links: TranscriptLinks): SafeHtml {
  const what = entry.subtype ? `${entry.kind} · ${entry.subtype}` : entry.kind;
  return html`<details class="entry entry--quiet" id="${entryAnchor(entry.uuid)}"><summary><span class="who">${what}</span> ${entryTime(entry)}</summary>${renderBlocks(entry, ctx, links)}</details>`;
}

/** The head of a card: who speaks, badges, model, time and a permalink. */
export function entryHead(entry: Entry): SafeHtml {
  const anchor = entryAnchor(entry.uuid);
  const badges = [
    entry.kind === 'interrupt' ? 'interrupted' : null,
    entry.kind === 'api-error' || entry.isApiError ? 'API error' : null,
    entry.kind === 'command' ? 'command' : null,
    entry.isMeta ? 'meta' : null,
  ].filter((b): b is string => b !== null);
  return html`<header class="entry__head"><span class="who">${actorLabel(entry)}</span>${badges.map((b) => html` <span class="badge">${b}</span>`)}${entry.message?.model ? html` <span class="muted model">${entry.message.model}</span>` : ''} ${entryTime(entry)} <a class="permalink" href="#${anchor}" aria-label="Link to this entry">#</a></header>`;
}

/** Renders one entry alone (an `<article>` with an anchor), or just its anchor when its results are folded. */
export function renderEntry(entry: Entry, ctx: TranscriptContext, links: TranscriptLinks): SafeHtml {
  const anchor = entryAnchor(entry.uuid);
  if (entry.kind === 'compact-boundary' || entry.kind === 'microcompact-boundary')
    return renderCompaction(entry, ctx);
  if (isFoldedResult(entry, ctx)) return html`<span class="anchor-only" id="${anchor}"></span>`;
  if (isQuiet(entry)) return html`${renderQuiet(entry, ctx, links)}${forkNote(entry, ctx, links)}`;
  return html`<article class="entry entry--${entry.actor}${entry.active ? '' : ' entry--abandoned'}" id="${anchor}">
${entryHead(entry)}
<div class="entry__body">${renderBlocks(entry, ctx, links)}</div>
</article>${forkNote(entry, ctx, links)}`;
}
