import { parentPort, workerData } from 'node:worker_threads';
import { hosted } from './journal-writer.js';

/**
 * The delivery journal's SQLite writer on a thread of its own: only when there is no embedded
 * engine thread to host it (LOYALTY_ENGINE_URL); see journal-writer.ts.
 */
hosted(parentPort!, workerData);
