/**
 * A session's display title: its title, else its first prompt, else its id (one line, at most 120 characters).
 * The one place the report derives it (core's `sessionTitle` derives the same).
 *
 * @param s The session's id and its index line's title and first prompt.
 */
export function sessionTitle(s: {
  id: string;
  summary: { title: string | null; firstPrompt: string | null };
}): string {
  const t = (s.summary.title ?? s.summary.firstPrompt ?? '').replace(/\s+/g, ' ').trim();
  if (t === '') return s.id;
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}
