// The differences a reference commit is known to have with this tree, applied as a reviewed list of groups
// (`expected-<ref>.mjs`): each group names what it removes and why, and an output counts as identical only when
// the groups that touched it remove every difference. Used by `scripts/check-identical.mjs --expected`.
import { firstDifference } from './compare.mjs';

/**
 * One group of differences known and justified.
 * - `id`, `why`: its name and its justification (issue, commit), printed with its count.
 * - `steps`: the steps it applies to (all when absent); `files`: the names it applies to (a path in the output
 *   folder, or `<stdout>` / `<stderr>`).
 * - `onlyIn`: the files it covers exist on that side alone ('either': on one side or the other).
 * - `json(value, side, other)`: rewrites a parsed JSON document (or each line of NDJSON) of one side; `other` is
 *   the other side's document at the same place, for a value that is only known from it.
 * - `text(text, side, other)`: rewrites the text of one side (used when the bytes are not JSON); `other` is the
 *   other side's text.
 * - `anyBytes`: the files it covers may differ in any way (pages the reader changes redrew): counted, not compared,
 *   and with `newHas` only when this tree's file holds that mark of the change (elsewhere they must be equal),
 *   and only for what the other groups leave.
 * @typedef {{ id: string, why: string, steps?: string[], files: RegExp, onlyIn?: 'ref' | 'new' | 'either',
 *   json?: (value: any, side: 'ref' | 'new', other: any) => any, text?: (text: string, side: 'ref' | 'new', other: string) => string,
 *   anyBytes?: boolean, newHas?: RegExp }} Group
 */

/** The layouts of JSON that cctrail writes, so that a document rewritten goes back to the same layout. */
const LAYOUTS = [
  ...[0, 1, 2].map((indent) => ({
    name: `json${indent}`,
    read: (text) => [JSON.parse(text)],
    write: (values) => JSON.stringify(values[0], null, indent),
  })),
  {
    name: 'ndjson',
    read: (text) =>
      text
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line)),
    write: (values) => values.map((value) => `${JSON.stringify(value)}\n`).join(''),
  },
];

/**
 * How `text` is laid out: one of LAYOUTS (with or without a final newline) when writing what it parses to gives
 * back its exact bytes, else null (then only text groups apply, so no difference of layout is ever hidden).
 */
function layoutOf(text) {
  for (const layout of LAYOUTS) {
    for (const end of layout.name === 'ndjson' ? [''] : ['', '\n']) {
      if (!text.endsWith(end) || (layout.name === 'ndjson' && !text.endsWith('\n'))) continue;
      try {
        const values = layout.read(text.slice(0, text.length - end.length));
        if (layout.write(values) + end === text) return { ...layout, end };
      } catch {}
    }
  }
  return null;
}

/** Whether `group` applies to file `name` of `step`. */
function applies(group, step, name) {
  return (!group.steps || group.steps.includes(step)) && group.files.test(name);
}

/**
 * Explains one difference of one step: a file (or stream) whose bytes differ, or that exists on one side only
 * (`ref` or `fresh` null). Returns the ids of the groups that account for it and, when they do not account for
 * all of it, what is left (`rest`, as `firstDifference` shows it).
 * @param {{ step: string, name: string, ref: Buffer | null, fresh: Buffer | null }} difference
 * @param {Group[]} groups
 * @returns {{ ids: string[], rest: string | null }}
 */
export function explain({ step, name, ref, fresh }, groups) {
  const mine = groups.filter((group) => applies(group, step, name));
  if (!ref || !fresh) {
    const side = ref ? 'ref' : 'new';
    const group = mine.find((candidate) => candidate.onlyIn === side || candidate.onlyIn === 'either');
    return group ? { ids: [group.id], rest: null } : { ids: [], rest: `only in ${side}` };
  }
  const raw = { ref: ref.toString('utf8'), new: fresh.toString('utf8') };
  const layouts = { ref: layoutOf(raw.ref), new: layoutOf(raw.new) };
  const json = layouts.ref && layouts.new && layouts.ref.name === layouts.new.name;
  const rewriting = mine.filter((group) => (json ? group.json : group.text));
  const { sides, ids } = normalize(raw, layouts, json, rewriting);
  const rest = firstDifference(Buffer.from(sides.ref), Buffer.from(sides.new));
  if (!rest) {
    // A group is named only when the file would still differ without it (one that decodes both sides alike,
    // such as the search documents, changes the text without explaining anything by itself).
    const needed = ids.filter((id) => {
      const others = normalize(
        raw,
        layouts,
        json,
        rewriting.filter((group) => group.id !== id),
      ).sides;
      return others.ref !== others.new;
    });
    return { ids: needed, rest: null };
  }
  // Pages the reader redrew may differ in any way: counted under their group once nothing narrower explains them.
  const whole = mine.find((group) => group.anyBytes && (!group.newHas || group.newHas.test(raw.new)));
  return whole ? { ids: [...ids, whole.id], rest: null } : { ids, rest };
}

/** Both sides rewritten by `groups` in turn, and the ids of the groups that changed them. */
function normalize(raw, layouts, json, groups) {
  const sides = { ...raw };
  const ids = [];
  for (const group of groups) {
    const before = { ...sides };
    if (json) rewriteJson(sides, layouts, group.json);
    else {
      sides.ref = group.text(before.ref, 'ref', before.new);
      sides.new = group.text(before.new, 'new', before.ref);
    }
    if (sides.ref !== before.ref || sides.new !== before.new) ids.push(group.id);
  }
  return { sides, ids };
}

/**
 * Rewrites both sides' JSON in place with `rewrite(value, side, other)`, document by document (each line of
 * NDJSON), `other` being the other side's document at the same place as it was before; writes each back in its
 * layout.
 */
function rewriteJson(sides, layouts, rewrite) {
  const read = (side) =>
    layouts[side].read(sides[side].slice(0, sides[side].length - layouts[side].end.length));
  const values = { ref: read('ref'), new: read('new') };
  const ref = values.ref.map((value, at) => rewrite(value, 'ref', values.new[at]));
  const fresh = values.new.map((value, at) => rewrite(value, 'new', values.ref[at]));
  sides.ref = layouts.ref.write(ref) + layouts.ref.end;
  sides.new = layouts.new.write(fresh) + layouts.new.end;
}

/**
 * Tallies explained differences by group, and keeps the unexplained ones, for the summary of a run.
 */
export class Tally {
  /** @type {Map<string, { count: number, example: string }>} */
  byGroup = new Map();
  /** @type {string[]} */
  unexplained = [];

  /** Records one difference (`where`: scenario, step and name) and what `explain` said of it. */
  add(where, { ids, rest }) {
    for (const id of ids) {
      const seen = this.byGroup.get(id);
      if (seen) seen.count++;
      else this.byGroup.set(id, { count: 1, example: where });
    }
    if (rest) this.unexplained.push(`${where}: ${ids.length ? `after ${ids.join(', ')}: ` : ''}${rest}`);
  }
}
