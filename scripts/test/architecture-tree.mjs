// The clean tree of the architecture check's test (architecture.test.mjs): every stage, entry point and allowed
// import of the repository's target layout, once, as files to write.

const manifest = (name, exports) => JSON.stringify({ name, type: 'module', exports });

/** A clean tree: every stage, entry point and allowed import of the target layout, once. */
export const CLEAN = {
  'packages/core/package.json': manifest('@cctrail/core', {
    '.': './src/index.ts',
    './node': './src/node/index.ts',
    './archive': './src/archive/index.ts',
  }),
  'packages/core/src/index.ts': "export { session } from './session.js';\n",
  'packages/core/src/archive/index.ts': "export { archive } from './archive.js';\n",
  'packages/core/src/read/lines.ts': "import { lean } from '../lean/lean.js';\nexport const lines = lean;\n",
  'packages/core/src/lean/lean.ts':
    "import type { Entry } from '../normalize/entries.js';\nexport const lean = (e?: Entry) => e;\n",
  'packages/core/src/normalize/entries.ts': 'export interface Entry { uuid: string }\n',
  'packages/core/src/graph/dag.ts':
    "import type { Entry } from '../normalize/entries.js';\nexport const dag = (e: Entry) => e;\n",
  'packages/core/src/analyses/branches.ts':
    "import { dag } from '../graph/dag.js';\nexport const branches = dag;\n",
  'packages/core/src/session.ts': [
    "import { branches } from './analyses/branches.js';",
    "import { lines } from './read/lines.js';",
    'export const session = [branches, lines];',
    '',
  ].join('\n'),
  'packages/core/src/archive/archive.ts':
    "import { session } from '../session.js';\nexport const archive = session;\n",
  'packages/core/src/node/index.ts': [
    "import { readFileSync } from 'node:fs';",
    "import { lines } from '../read/lines.js';",
    'export const read = [readFileSync, lines];',
    '',
  ].join('\n'),
  'apps/report/package.json': manifest('@cctrail/report', {
    '.': './src/index.ts',
    './parts': './src/parts.ts',
  }),
  'apps/report/node_modules/@cctrail/core': '-> packages/core',
  'apps/report/src/index.ts':
    "import { archive } from '@cctrail/core/archive';\nexport { build } from './build/build.js';\nexport const a = archive;\n",
  'apps/report/src/parts.ts': 'export const parts = 1;\n',
  'apps/report/src/build/build.ts': "import { view } from '../views/view.js';\nexport const build = view;\n",
  'apps/report/src/views/view.ts':
    "import { archive } from '@cctrail/core/archive';\nexport const view = archive;\n",
  'apps/report/site/src/components/Page.astro':
    "---\nimport { view } from '../../../src/views/view.ts';\n---\n<p>{view}</p>\n",
  'apps/report/site/src/pages/index.astro': [
    '---',
    "import Page from '../components/Page.astro';",
    "import { build } from '../../../src/build/build.ts';",
    '---',
    '<Page data={build} />',
    '',
  ].join('\n'),
  'packages/cli/package.json': manifest('cctrail', { '.': './src/main.ts' }),
  'packages/cli/node_modules/@cctrail/core': '-> packages/core',
  'packages/cli/node_modules/@cctrail/report': '-> apps/report',
  'packages/cli/src/main.ts': [
    "import { session } from '@cctrail/core';",
    "import { archive } from '@cctrail/core/archive';",
    "import { read } from '@cctrail/core/node';",
    "import { build } from '@cctrail/report';",
    'export const main = [session, archive, read, build];',
    '',
  ].join('\n'),
};
