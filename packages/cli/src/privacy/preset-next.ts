/**
 * Second checks of the preset's keywords (as `SecretPattern.next` is for cctrail's rules): for an expression of
 * secretlint's preset whose keywords are found in ordinary text, what must follow a keyword where the expression
 * matches. Each check is the expression's own continuation after its keywords, so a string it turns away holds no
 * match, and the rule, selected by a keyword that passes, still runs on the whole string with its own expression.
 * Keyed by `String(expression)`: an expression a newer preset changes has no check (its rule runs on every string
 * holding a keyword, as before).
 */
export const PRESET_NEXT: Readonly<Record<string, RegExp>> = {
  // `basicauth`: `https://` is in most long outputs; a URL with credentials has `user:password@` right after it.
  '/(?<protocol>(?:https?|ftp|ftps)):\\/\\/(?<user>[-a-zA-Z0-9_]{1,256}):(?<password>[-a-zA-Z0-9_]{1,256})@[-a-zA-Z0-9%._+~#=]{1,256}\\.[a-zA-Z0-9()]{1,6}\\b/g':
    /[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@/y,
};
