// The report site. buildReport() bundles it once with these options (see render-adapter.mjs) and renders the
// pages it needs with that bundle.
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
});
