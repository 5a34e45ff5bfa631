// The report's Astro adapter. The site is bundled once into a server bundle whose one export, `renderPage`,
// renders a route to HTML; `buildReport` keeps that bundle and renders the pages it needs with it, so a build
// does not run Vite (see `src/build/site-server.ts`). Pages link to everything relatively and use no processed
// assets, so the bundle is the same for every base path.
import { fileURLToPath } from 'node:url';

/** The Astro integration that sets the adapter. */
export default function renderAdapter() {
  return {
    name: 'cctrail-render',
    hooks: {
      'astro:config:done': ({ setAdapter }) =>
        setAdapter({
          name: 'cctrail-render',
          serverEntrypoint: fileURLToPath(new URL('./render-entry.mjs', import.meta.url)),
          exports: ['renderPage'],
          supportedAstroFeatures: { serverOutput: 'stable', staticOutput: 'stable', hybridOutput: 'stable' },
        }),
    },
  };
}
