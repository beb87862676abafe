import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi-document.js';

/** The committed copy vendors read without running the gateway. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

/** The document as committed: two-space JSON with a final newline. */
export const renderOpenApi = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
