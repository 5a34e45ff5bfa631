// The report's `.astro` components and layouts import view models only: besides other files of their site and
// outside packages (astro, …), only modules under the app's `src/views/`. Pages (`site/src/pages/`), where the
// data enters the site, may also import the app's `src/build/`. dependency-cruiser does not parse `.astro`
// files, so this script checks the rule `report-site-imports-views-only` for it (`pnpm lint:arch`).
// `node scripts/check-site-imports.mjs [ROOT]`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The rule's name, as dependency-cruiser would print it. */
export const RULE = 'report-site-imports-views-only';

/**
 * The module specifiers a component imports: in its frontmatter and in its `<script>` elements.
 * @param {string} text
 * @returns {string[]}
 */
export function importsOf(text) {
  const code = [];
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (frontmatter) code.push(frontmatter[1]);
  for (const script of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) code.push(script[1]);
  const specifiers = [];
  for (const block of code) {
    for (const found of block.matchAll(/\bimport\s+(?:[^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/g)) {
      specifiers.push(found[1]);
    }
    for (const found of block.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(found[1]);
  }
  return specifiers;
}

/**
 * Every import of a component of `apps/<app>/site/src` that breaks the rule, with paths relative to the root.
 * @param {string} root
 * @returns {{from: string, to: string}[]}
 */
export function siteImportViolations(root) {
  const violations = [];
  const apps = join(root, 'apps');
  if (!existsSync(apps)) return violations;
  for (const app of readdirSync(apps).sort()) {
    const site = join(apps, app, 'site', 'src');
    if (!existsSync(site)) continue;
    const views = join(apps, app, 'src', 'views');
    const names = readdirSync(site, { recursive: true }).map(String).sort();
    for (const name of names.filter((file) => file.endsWith('.astro'))) {
      const file = join(site, name);
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        const page = name.startsWith(`pages${sep}`);
        const inside = page ? [site, views, join(apps, app, 'src', 'build')] : [site, views];
        if (allowed(specifier, dirname(file), inside)) continue;
        violations.push({ from: relative(root, file), to: specifier });
      }
    }
  }
  return violations;
}

/** Whether a component in `folder` may import `specifier`: an outside package, or a file in `inside`. */
function allowed(specifier, folder, inside) {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
    return !/^(@cctrail\/|cctrail($|\/))/.test(specifier);
  }
  const target = resolve(folder, specifier);
  return inside.some((allowedFolder) => target.startsWith(allowedFolder + sep));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const found = siteImportViolations(resolve(process.argv[2] ?? '.'));
  for (const { from, to } of found) console.error(`  error ${RULE}: ${from} → ${to}`);
  if (found.length > 0) {
    console.error(`check-site-imports: ${found.length} import(s) of a component outside the view models`);
    process.exit(1);
  }
  console.log('check-site-imports: components import view models only');
}
