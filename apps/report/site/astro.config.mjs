// The report site. buildReport() bundles it once with these options (see render-adapter.mjs) and renders the
// pages it needs with that bundle. The bundle inlines every module it imports (Astro's runtime, unified,
// shiki's core and the grammars it loads, d3's functions), so an installed report needs none of those packages.
import { defineConfig, passthroughImageService } from 'astro/config';
import renderAdapter from './render-adapter.mjs';

export default defineConfig({
  output: 'server',
  adapter: renderAdapter(),
  image: { service: passthroughImageService() },
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  compressHTML: true,
  prefetch: false,
  scopedStyleStrategy: 'class',
  vite: { ssr: { noExternal: true } },
});
