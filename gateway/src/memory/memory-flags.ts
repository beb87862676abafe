/**
 * Prints the main thread's node flags for this environment (memory-bounds.ts), for the production
 * start (gateway/bin/start) to pass to node: V8 sizes the main isolate's heap before any of the
 * gateway's code runs, so the flags must come from a step before it. A bad environment prints
 * nothing: the gateway itself then reports it with the variable's name.
 */
import { ConfigError } from '@loyalty-gateway/core';
import { loadConfig } from '../config.js';
import { mainThreadFlags } from './memory-bounds.js';

try {
  process.stdout.write(`${mainThreadFlags(loadConfig(process.env)).join(' ')}\n`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
}
