import { html, type SafeHtml } from '../html/html.js';
import type { Sidechain } from '../model.js';
import type { TranscriptContext } from './transcript.js';

/**
 * The card under a Task/Agent call: the agent it spawned (type, description, size, status) with a link to
 * the agent's page, or why there is none: the spawn failed (the call's error, not a run), or the agent ran
 * but its transcript is not in the archive (a teammate's is its own session file, FORMAT.md §13.2).
 */
export function spawnCard(sc: Sidechain, href: string | null, ctx: TranscriptContext): SafeHtml {
  const o = ctx.outcomes.get(sc.id);
  if (o?.outcome === 'failed-spawn')
    return html`<p class="agent-card agent-card--failed"><span class="agent-card__type">${sc.agentType}</span> <span class="badge badge--error">spawn failed</span>${o.error ? html` <span class="agent-card__why">${o.error}</span>` : ''}</p>`;
  const about = sc.description ? html` <span class="agent-card__about">${sc.description}</span>` : '';
  // A named team spawn (FORMAT.md §13.2) runs as its own session file: its page links there when it is found.
  if (o?.outcome === 'missing-transcript' && sc.teamName)
    return html`<p class="agent-card agent-card--teammate">Teammate <span class="agent-card__type">${sc.name ?? sc.agentType}</span> of team ${sc.teamName}${about} <span class="badge">own session file</span>${href ? html` <a href="${href}">Its page →</a>` : ''}</p>`;
  if (o?.outcome === 'missing-transcript')
    return html`<p class="agent-card agent-card--missing">Sub-agent <span class="agent-card__type">${sc.agentType}</span>${about} <span class="badge">transcript missing</span>${href ? html` <a href="${href}">Its page →</a>` : ''}</p>`;
  return html`<p class="agent-card">Sub-agent <span class="agent-card__type">${sc.agentType}</span>${about} <span class="muted">${sc.entries} entries · ${sc.status}</span>${href ? html` <a class="agent-card__open" href="${href}">Open its transcript →</a>` : ''}</p>`;
}
