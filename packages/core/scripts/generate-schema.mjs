// Generates the JSON Schemas (draft 2020-12) of what cctrail writes from core's own TypeScript types:
// `schema/index.schema.json` (an archive's index.json), `schema/session.schema.json` (one session file) and
// `schema/stats.schema.json` (`cctrail stats --json`). Run by `build`; a test checks the files are current.
// Shipped as `@cctrail/core/schema/*`; the cli publishes byte-identical copies as `cctrail/schema/*`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

const src = (file) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));

/** The schemas: output file name, source file in core, root type, title. */
export const SCHEMAS = [
  {
    file: 'index.schema.json',
    source: 'archive/archive-index.ts',
    type: 'ArchiveIndex',
    title: 'cctrail archive index.json',
  },
  {
    file: 'session.schema.json',
    source: 'model/session.ts',
    type: 'Session',
    title: 'cctrail normalized session file',
  },
  {
    file: 'stats.schema.json',
    source: 'archive/stats-shapes.ts',
    type: 'ArchiveStats',
    title: 'cctrail stats --json',
  },
];

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** Builds one schema as a plain object. */
export function generateSchema({ source, type, title, file }) {
  const generator = createGenerator({
    path: src(source),
    tsconfig: src('../tsconfig.json'),
    type,
    skipTypeCheck: true,
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    sortProps: true,
    strictTuples: false,
    encodeRefs: true,
  });
  const draft7 = generator.createSchema(type);
  const { $schema: _draft, definitions, ...rest } = draft7;
  return {
    $schema: DRAFT,
    $id: `urn:cctrail:schema:1:${file.replace('.schema.json', '')}`,
    title,
    ...toDraft2020({ ...rest, $defs: definitions }),
  };
}

/** Rewrites draft-07 keywords into their 2020-12 form: `$defs` references and `prefixItems` tuples. */
function toDraft2020(node) {
  if (Array.isArray(node)) return node.map(toDraft2020);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/definitions/', '#/$defs/');
    else if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map(toDraft2020);
    else if (key === 'additionalItems') out.items = toDraft2020(value);
    else if (key === 'definitions') out.$defs = toDraft2020(value);
    else out[key] = toDraft2020(value);
  }
  return out;
}

/** The text of a schema file, laid out as the repository's formatter (Biome) lays out JSON. */
export function schemaText(schema) {
  return `${layout(schema, '', 0)}\n`;
}

const WIDTH = 110;

/** JSON with 2-space indents; arrays of plain values stay on one line when they fit. */
function layout(value, indent, used) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object')) {
      const flat = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
      if (used + flat.length + 1 <= WIDTH) return flat;
    }
    const items = value.map((item) => inner + layout(item, inner, inner.length));
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  const fields = keys.map((key) => {
    const head = `${inner}${JSON.stringify(key)}: `;
    return head + layout(value[key], inner, head.length);
  });
  return `{\n${fields.join(',\n')}\n${indent}}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const spec of SCHEMAS) {
    writeFileSync(new URL(`../schema/${spec.file}`, import.meta.url), schemaText(generateSchema(spec)));
  }
}
