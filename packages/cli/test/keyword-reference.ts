/**
 * What a keyword scan must find, read the slow way: every occurrence of every keyword (ASCII letters folded for
 * those matched in any case), by where each ends, the longest first, then in the keywords' order, as `word@start`.
 *
 * @param words The keywords, in the scan's order.
 * @param anyCase Whether the keyword at an index is matched in any case.
 * @param text The text read.
 */
export function keywordsFromStart(
  words: readonly string[],
  anyCase: (index: number) => boolean,
  text: string,
): string[] {
  return words
    .flatMap((word, index) => {
      const out: { word: string; start: number; index: number }[] = [];
      const folded = anyCase(index) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
      for (let at = folded.indexOf(word); at !== -1; at = folded.indexOf(word, at + 1))
        out.push({ word, start: at, index });
      return out;
    })
    .sort(
      (a, b) =>
        a.start + a.word.length - (b.start + b.word.length) ||
        b.word.length - a.word.length ||
        a.index - b.index,
    )
    .map(({ word, start }) => `${word}@${start}`);
}
