// Worker entry: the workspace runs TypeScript from source (tsx), and a worker thread starts
// without the parent's loader, so register it here before loading the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./engine-worker.ts');
