// Makes the built binary executable (tsc writes plain files), so `dist/bin.js` runs as `cctrail`.
import { chmodSync } from 'node:fs';

chmodSync(new URL('../dist/bin.js', import.meta.url), 0o755);
