// Worker entry from source: a worker thread starts without the parent's loader, so register tsx
// here before loading the writer (the production build bundles journal-worker.js instead).
import { register } from 'tsx/esm/api';

register();
await import('./journal-worker.ts');
