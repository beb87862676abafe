/**
 * Writes docs/openapi.json from the code (`npm run openapi`). CI fails when the committed file
 * differs from what the code builds (openapi.test.ts), so regenerate it with every schema change.
 */
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApi } from './render-openapi.js';

writeFileSync(OPENAPI_FILE, renderOpenApi());
console.log(`wrote ${OPENAPI_FILE}`);
