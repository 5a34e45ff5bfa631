import { diffLines } from 'diff';
import { html, type SafeHtml } from '../html/html.js';
import { renderOutput } from './render-output.js';

/**
 * Tool calls as people read them: an edit as a diff, a written file with its path, a todo list as a
 * checklist, a command as a command, a read with its path and line range, a fetch with its URL. A tool this
 * module does not know, or a known tool whose input is not the shape it expects, keeps the generic view
 * (its arguments); every value is escaped text.
 */

/** How a known tool's call is shown: its body, and whether it is open at first. */
export interface ToolView {
  body: SafeHtml;
  open: boolean;
}

/** Characters of each side of an edit that are diffed line by line; longer edits show both sides whole. */
const DIFF_CAP = 20_000;

type Input = Record<string, unknown>;

function str(i: Input, key: string): string | null {
  const v = i[key];
  return typeof v === 'string' ? v : null;
}

function num(i: Input, key: string): number | null {
  const v = i[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A file path as a heading line of a call. */
function pathLine(path: string, note = ''): SafeHtml {
  return html`<p class="tool__path"><code>${path}</code>${note ? html` <span class="muted">${note}</span>` : ''}</p>`;
}

/** A unified view of an edit: removed lines, added lines, and the lines both sides share. */
function renderDiff(before: string, after: string): SafeHtml {
  if (before.length > DIFF_CAP || after.length > DIFF_CAP)
    return html`<div class="diff">${renderOutput(before, 'diff__del')}${renderOutput(after, 'diff__add')}</div>`;
  const rows: SafeHtml[] = [];
  for (const part of diffLines(before, after)) {
    const cls = part.added ? 'diff__add' : part.removed ? 'diff__del' : 'diff__same';
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    const lines = part.value.replace(/\n$/, '').split('\n');
    rows.push(html`${lines.map((l) => html`<span class="${cls}">${mark} ${l}\n</span>`)}`);
  }
  return html`<pre class="diff">${rows}</pre>`;
}

function editView(i: Input): ToolView | null {
  const path = str(i, 'file_path');
  const before = str(i, 'old_string');
  const after = str(i, 'new_string');
  if (path === null || before === null || after === null) return null;
  const all = i.replace_all === true ? 'every occurrence' : '';
  return { body: html`${pathLine(path, all)}${renderDiff(before, after)}`, open: true };
}

function multiEditView(i: Input): ToolView | null {
  const path = str(i, 'file_path');
  const edits = Array.isArray(i.edits) ? (i.edits as unknown[]) : null;
  if (path === null || edits === null) return null;
  const parts: SafeHtml[] = [];
  for (const e of edits) {
    if (typeof e !== 'object' || e === null) return null;
    const before = str(e as Input, 'old_string');
    const after = str(e as Input, 'new_string');
    if (before === null || after === null) return null;
    parts.push(renderDiff(before, after));
  }
  return { body: html`${pathLine(path, `${edits.length} edits`)}${parts}`, open: true };
}

function writeView(i: Input): ToolView | null {
  const path = str(i, 'file_path');
  const content = str(i, 'content');
  if (path === null || content === null) return null;
  return { body: html`${pathLine(path, 'written')}${renderOutput(content, 'code')}`, open: true };
}

const TODO_MARKS: Record<string, string> = { completed: '☑', in_progress: '◐', pending: '☐' };

function todoView(i: Input): ToolView | null {
  if (!Array.isArray(i.todos)) return null;
  const items: SafeHtml[] = [];
  for (const t of i.todos as unknown[]) {
    if (typeof t !== 'object' || t === null) return null;
    const content = str(t as Input, 'content') ?? str(t as Input, 'activeForm');
    if (content === null) return null;
    const status = str(t as Input, 'status') ?? 'pending';
    const state = status in TODO_MARKS ? status : 'pending';
    items.push(
      html`<li class="todo todo--${state}"><span class="todo__mark" aria-hidden="true">${(Object.hasOwn(TODO_MARKS, state) ? TODO_MARKS[state] : undefined) ?? '☐'}</span> ${content}<span class="visually-hidden"> (${status})</span></li>`,
    );
  }
  return { body: html`<ul class="todos">${items}</ul>`, open: true };
}

function bashView(i: Input): ToolView | null {
  const command = str(i, 'command');
  if (command === null) return null;
  const about = str(i, 'description');
  return {
    body: html`${about ? html`<p class="muted">${about}</p>` : ''}<pre class="code cmd"><span class="cmd__prompt" aria-hidden="true">$ </span>${command}</pre>`,
    open: true,
  };
}

/** The line range of a Read call, as `lines 10–59`, or '' for a whole file. */
export function readRange(i: Input): string {
  const offset = num(i, 'offset');
  const limit = num(i, 'limit');
  if (offset === null && limit === null) return '';
  const from = offset ?? 1;
  return limit === null ? `from line ${from}` : `lines ${from}–${from + limit - 1}`;
}

function readView(i: Input): ToolView | null {
  const path = str(i, 'file_path');
  if (path === null) return null;
  return { body: pathLine(path, readRange(i) || 'whole file'), open: false };
}

/** A URL as a link when it is http(s), else as text. */
function urlLine(url: string): SafeHtml {
  return /^https?:\/\//i.test(url)
    ? html`<p class="tool__path"><a href="${url}" rel="noopener noreferrer nofollow">${url}</a></p>`
    : pathLine(url);
}

function webFetchView(i: Input): ToolView | null {
  const url = str(i, 'url');
  if (url === null) return null;
  const prompt = str(i, 'prompt');
  return { body: html`${urlLine(url)}${prompt ? renderOutput(prompt, 'plain') : ''}`, open: false };
}

function webSearchView(i: Input): ToolView | null {
  const query = str(i, 'query');
  if (query === null) return null;
  const domains = [i.allowed_domains, i.blocked_domains].map((d) =>
    Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string').join(', ') : '',
  );
  return {
    body: html`<p class="tool__path">Search: <q>${query}</q></p>${domains[0] ? html`<p class="muted">only ${domains[0]}</p>` : ''}${domains[1] ? html`<p class="muted">not ${domains[1]}</p>` : ''}`,
    open: false,
  };
}

function taskView(i: Input): ToolView | null {
  const prompt = str(i, 'prompt');
  if (prompt === null) return null;
  const type = str(i, 'subagent_type') ?? 'general-purpose';
  const about = str(i, 'description');
  return {
    body: html`<p class="tool__path">Agent <strong>${type}</strong>${about ? html` — ${about}` : ''}</p><details class="task__prompt"><summary>Prompt</summary>${renderOutput(prompt, 'plain')}</details>`,
    open: true,
  };
}

const VIEWS: Record<string, (i: Input) => ToolView | null> = {
  Edit: editView,
  MultiEdit: multiEditView,
  Write: writeView,
  TodoWrite: todoView,
  Bash: bashView,
  Read: readView,
  WebFetch: webFetchView,
  WebSearch: webSearchView,
  Task: taskView,
  Agent: taskView,
};

/** The view of a known tool's call, or null for the generic view. */
export function toolView(name: string, input: unknown): ToolView | null {
  const view = Object.hasOwn(VIEWS, name) ? VIEWS[name] : undefined;
  if (!view || typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  return view(input as Input);
}
