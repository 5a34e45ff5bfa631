// The report site. buildReport() passes root, outDir, base and cache folders; this file holds the fixed parts.
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  compressHTML: true,
  prefetch: false,
  scopedStyleStrategy: 'class',
});
