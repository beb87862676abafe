import { readFile } from 'node:fs/promises';
import { GatewayError } from '@loyalty-gateway/core';
import type { EmbeddedEngine } from '@loyalty-gateway/engine';
import type { GatewayStore } from '../stores/index.js';
import { parseSeed, type ParsedSeed } from './seed-schema.js';

/** An unusable seed file: the message names the file and every faulty field path. */
export class SeedError extends Error {
  override readonly name = 'SeedError';
}

/** Read and validate GATEWAY_SEED_FILE. */
export async function loadSeedFile(file: string): Promise<ParsedSeed> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SeedError(`Seed file ${file} cannot be read: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new SeedError(`Seed file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = parseSeed(document);
  if ('issues' in parsed) {
    const lines = parsed.issues.map((issue) => `  ${issue.path}: ${issue.message}`);
    throw new SeedError(`Seed file ${file} is invalid:\n${lines.join('\n')}`);
  }
  return { ...parsed.seed, source: `Seed file ${file}` };
}

export interface SeedTargets {
  store: GatewayStore;
  engine: EmbeddedEngine;
}

/**
 * Apply a seed idempotently: vendors and connections go to the gateway store (created when
 * absent, never changed when present), merchants and everything under them to the engine.
 * The engine goes first: it checks what depends on the data already there (the reward-code
 * prefix) and writes all or nothing, so a refused seed leaves nothing behind. Its refusal is a
 * SeedError naming the file and the faulty path. Returns how many vendors and connections were
 * created by this run.
 */
export async function applySeed(seed: ParsedSeed, targets: SeedTargets): Promise<{ vendors: number; connections: number }> {
  await targets.engine.applySeed(seed.engine).catch((error: unknown) => {
    if (!(error instanceof GatewayError) || !error.fields) throw error;
    const lines = error.fields.map((field) => `  ${field.path}: ${field.message}`);
    throw new SeedError(`${seed.source ?? 'The seed'} cannot be applied:\n${lines.join('\n')}`, { cause: error });
  });
  let vendors = 0;
  let connections = 0;
  for (const vendor of seed.vendors) {
    if ((await targets.store.ensureVendor(vendor)).created) vendors += 1;
  }
  for (const connection of seed.connections) {
    if ((await targets.store.ensureConnection(connection)).created) connections += 1;
  }
  return { vendors, connections };
}
