import { loadFixtures } from '@loyalty-gateway/core/testing';

/** WooCommerce's documented payloads of src/fixtures, byte for byte (webhook bodies are signed over these). */
export const fixtures = loadFixtures(new URL('../fixtures/', import.meta.url));
