import { readFile } from 'node:fs/promises';
import { formatPath } from '@loyalty-gateway/core';
import { z } from 'zod';
import { EngineSeed } from '../seed/engine-seed.js';
import { EngineServiceConfigError } from './service-config.js';

/**
 * The gateway's seed-file format, as the engine service reads it: `codePrefix` and `merchants`
 * (each minus its `connections`) are the engine's; `vendors` and connections belong to the
 * gateway and are ignored here (the gateway validates them).
 */
const GatewaySeedFile = z.looseObject({
  codePrefix: z.unknown().optional(),
  merchants: z.array(z.looseObject({ connections: z.unknown().optional() })).default([]),
});

export function engineSeedFrom(document: unknown): EngineSeed {
  const outer = GatewaySeedFile.safeParse(document);
  const issues = (error: z.ZodError) => error.issues.map((issue) => `  ${formatPath(issue.path)}: ${issue.message}`).join('\n');
  if (!outer.success) throw new EngineServiceConfigError(`ENGINE_SEED_FILE is invalid:\n${issues(outer.error)}`);
  const input = {
    ...(outer.data.codePrefix === undefined ? {} : { codePrefix: outer.data.codePrefix }),
    merchants: outer.data.merchants.map(({ connections: _connections, ...merchant }) => merchant),
  };
  const parsed = EngineSeed.safeParse(input);
  if (!parsed.success) throw new EngineServiceConfigError(`ENGINE_SEED_FILE is invalid:\n${issues(parsed.error)}`);
  return parsed.data;
}

/** Read and validate ENGINE_SEED_FILE. */
export async function loadEngineSeedFile(file: string): Promise<EngineSeed> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new EngineServiceConfigError(`ENGINE_SEED_FILE ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  return engineSeedFrom(document);
}
