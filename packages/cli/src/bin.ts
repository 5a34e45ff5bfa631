#!/usr/bin/env node
import { tuneV8 } from './runtime/v8-tuning.js';

// Before the modules that do the work are loaded, so their functions start under the tuned flags.
tuneV8();
const { main } = await import('./main.js');

// A closed pipe (`cctrail stats | head`) is not an error worth a message.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await main(process.argv.slice(2));
// A signal handled while the run ended has set its own code (130, 143): it is kept.
process.exitCode ||= code;
