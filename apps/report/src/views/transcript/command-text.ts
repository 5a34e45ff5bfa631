import { html, type SafeHtml } from '../html/html.js';
import { renderOutput } from './render-output.js';

/**
 * The text conventions Claude Code writes for local commands, shown as commands: a slash command
 * (`<command-name>/mcp</command-name><command-message>…<command-args>…`) as `/mcp args`, its output
 * (`<local-command-stdout>…`, `<local-command-stderr>…`) and `!` mode (`<bash-input>`, `<bash-stdout>`,
 * `<bash-stderr>`) as a command and its output, the caveat Claude Code adds before them as a quiet note.
 * Text that is not one of these is left to the caller; every value is escaped.
 */

const TAG =
  /<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr)>([\s\S]*?)<\/\1>/g;

/** The tagged parts of a command text, or null when the text is more than tags and white space. */
export function commandParts(text: string): Map<string, string> | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('<')) return null;
  const parts = new Map<string, string>();
  let rest = trimmed;
  for (const m of trimmed.matchAll(TAG)) {
    const [all, name, value] = m;
    if (name && value !== undefined && !parts.has(name)) parts.set(name, value);
    rest = rest.replace(all, '');
  }
  return parts.size > 0 && rest.trim() === '' ? parts : null;
}

/** A command text as a command and its output, or null when `text` is not one (see the module comment). */
export function renderCommandText(text: string): SafeHtml | null {
  const parts = commandParts(text);
  if (!parts) return null;
  const out: SafeHtml[] = [];
  const name = parts.get('command-name');
  if (name !== undefined) {
    const args = (parts.get('command-args') ?? '').trim();
    const shown = name.startsWith('/') ? name : `/${name}`;
    out.push(html`<p class="slash"><code>${shown}${args ? ` ${args}` : ''}</code></p>`);
  }
  const input = parts.get('bash-input');
  if (input !== undefined)
    out.push(
      html`<pre class="code cmd"><span class="cmd__prompt" aria-hidden="true">! </span>${input}</pre>`,
    );
  for (const key of ['local-command-stdout', 'bash-stdout']) {
    const v = parts.get(key);
    if (v !== undefined && v.trim() !== '') out.push(renderOutput(v, 'out'));
  }
  for (const key of ['local-command-stderr', 'bash-stderr']) {
    const v = parts.get(key);
    if (v !== undefined && v.trim() !== '') out.push(renderOutput(v, 'out out--err'));
  }
  const caveat = parts.get('local-command-caveat');
  if (caveat !== undefined) out.push(html`<p class="muted small">${caveat}</p>`);
  return out.length > 0 ? html`${out}` : null;
}
