#!/usr/bin/env node
import { main } from './main.js';

// A closed pipe (`cctrail stats | head`) is not an error worth a message.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
