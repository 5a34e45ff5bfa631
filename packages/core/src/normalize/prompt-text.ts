/** What the person typed: the text of prompts and slash commands, without the context Claude Code injects. */
import type { ContentBlock, Entry } from '../model/entry.js';

/** Text blocks Claude Code injects around what the person typed (IDE context, reminders). */
const INJECTED = /^\s*<(ide_selection|ide_opened_file|system-reminder|ide_diagnostics)>[\s\S]*<\/\1>\s*$/;

/**
 * What the person typed in a prompt or slash command: the text blocks other than injected context, and for a
 * slash command `/name args`. Null when there is none.
 */
export function promptText(content: readonly ContentBlock[]): string | null {
  const parts: string[] = [];
  for (const block of content) {
    if (block.type !== 'text' || INJECTED.test(block.text)) continue;
    const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(block.text);
    if (name) {
      const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(block.text);
      parts.push(`${name[1]!.trim()} ${args?.[1]?.trim() ?? ''}`.trim());
    } else if (
      !/^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr|local-command-caveat)>/.test(
        block.text,
      )
    ) {
      parts.push(block.text);
    }
  }
  const text = parts.join('\n').trim();
  return text === '' ? null : text;
}

/** Whether a command entry is something the person typed (a slash command or a `!` shell command). */
export function isTypedCommand(entry: Entry): boolean {
  if (entry.kind !== 'command') return false;
  const text = firstText(entry.content) ?? '';
  return (
    /^\s*<(command-name|command-message|bash-input)>/.test(text) ||
    (entry.type === 'system' && /<command-name>/.test(text))
  );
}

/** First text of an entry's content, or null. */
export function firstText(content: readonly ContentBlock[]): string | null {
  for (const block of content) if (block.type === 'text') return block.text;
  return null;
}
