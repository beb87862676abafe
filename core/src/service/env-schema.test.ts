import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ConfigError, optionalEnv, parseEnv, portEnv, urlEnv } from './env-schema.js';

const Schema = z.object({
  PORT: optionalEnv(portEnv).default(3000),
  DATABASE_URL: optionalEnv(urlEnv(['postgres:', 'postgresql:'])),
});

describe('parseEnv', () => {
  it('treats empty and blank values as unset and applies defaults', () => {
    expect(parseEnv(Schema, { PORT: ' ', DATABASE_URL: '' })).toEqual({ PORT: 3000 });
    expect(parseEnv(Schema, { PORT: '8080', DATABASE_URL: 'postgres://db/x' })).toEqual({ PORT: 8080, DATABASE_URL: 'postgres://db/x' });
  });

  it('names every faulty variable in one ConfigError', () => {
    const run = () => parseEnv(Schema, { PORT: '70000', DATABASE_URL: 'mysql://x' }, 'Invalid engine configuration');
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(
      /^Invalid engine configuration:\n {2}PORT: must be between 0 and 65535\n {2}DATABASE_URL: must be a URL starting with postgres:\/\/ or postgresql:\/\//,
    );
  });
});
