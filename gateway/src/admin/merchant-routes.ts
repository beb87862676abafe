import { GatewayError, operatorName, parseOrThrow } from '@loyalty-gateway/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_ROUTE, type AdminDeps } from './admin-types.js';
import { parseJsonObject } from '../webhooks/read-envelope.js';

const Name = operatorName;
const Rate = z
  .number()
  .positive()
  .refine((n) => Math.round(n * 1e6) / 1e6 === n, { message: 'must have at most 6 decimal places' });

/** The seed file's merchant fields (docs/seed-file.md): a merchant of the reference engine. */
const NewMerchant = z.strictObject({
  id: Name,
  name: Name,
  currency: z.string().regex(/^[A-Z]{3}$/, { message: 'must be a 3-letter ISO 4217 code in upper case' }),
  defaultCountryCode: z.string().regex(/^[1-9]\d{0,2}$/, { message: 'must be 1–3 digits without + (e.g. "1", "44")' }),
  earnRate: Rate,
  redemptionRate: Rate,
});
const NewOutlet = z.strictObject({ id: Name, name: Name });
export const MerchantParams = z.strictObject({ id: Name });

/** Why merchants cannot be created through the gateway with a remote engine (the console says it too). */
export const REMOTE_ENGINE_MERCHANTS =
  "Merchants and outlets live in the remote loyalty engine: add them to the engine service's ENGINE_SEED_FILE and restart it.";

const remoteEngine = () => new GatewayError('engine_managed', { message: REMOTE_ENGINE_MERCHANTS });

type MerchantDeps = Pick<AdminDeps, 'engine' | 'engineSeed'>;

/** A merchant of the reference engine (the seed file's merchant fields); 409 merchant_exists when the id is taken. The admin API and the console both create through it. */
export async function createMerchant(deps: MerchantDeps, body: unknown, log: Pick<FastifyBaseLogger, 'info'>) {
  const merchant = parseOrThrow(NewMerchant, body);
  if (!deps.engineSeed) throw remoteEngine();
  const existing = await deps.engine.listMerchants();
  if (existing.some((m) => m.id === merchant.id))
    throw new GatewayError('merchant_exists', { message: `A merchant with the id "${merchant.id}" already exists.` });
  await deps.engineSeed({ merchants: [{ ...merchant, outlets: [], members: [], rewards: [], issuedCodes: [] }] });
  log.info({ merchantId: merchant.id }, 'merchant created');
  return (await deps.engine.listMerchants()).find((m) => m.id === merchant.id);
}

/** An outlet of an existing merchant; 404 merchant_not_found, 409 outlet_exists. Returns the merchant with its outlets. */
export async function addOutlet(deps: MerchantDeps, id: string, body: unknown, log: Pick<FastifyBaseLogger, 'info'>) {
  const outlet = parseOrThrow(NewOutlet, body);
  if (!deps.engineSeed) throw remoteEngine();
  const merchant = (await deps.engine.listMerchants()).find((m) => m.id === id);
  if (!merchant)
    throw new GatewayError('merchant_not_found', {
      message: `No merchant with the id "${id}": create it first (POST /admin/merchants).`,
    });
  if (merchant.outlets.some((o) => o.id === outlet.id))
    throw new GatewayError('outlet_exists', { message: `Merchant "${id}" already has an outlet "${outlet.id}".` });
  // Seeds are insert-if-absent: the merchant row exists, so only the outlet is written (its
  // country code and rates below are never read).
  await deps.engineSeed({
    merchants: [
      {
        id,
        name: merchant.name,
        currency: merchant.currency,
        defaultCountryCode: '1',
        earnRate: 1,
        redemptionRate: 1,
        outlets: [outlet],
        members: [],
        rewards: [],
        issuedCodes: [],
      },
    ],
  });
  log.info({ merchantId: id, outletId: outlet.id }, 'outlet created');
  return (await deps.engine.listMerchants()).find((m) => m.id === id);
}

/**
 * Merchants and outlets, so an operator onboards without editing a seed file: list them through
 * the engine port (embedded or remote alike); create them in the reference engine when it runs
 * embedded (the seed file's merchant fields; insert-if-absent, like a seed).
 */
export function registerMerchantRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  scope.get('/merchants', ADMIN_ROUTE, async () => ({ merchants: await deps.engine.listMerchants() }));

  scope.post('/merchants', ADMIN_ROUTE, async (request, reply) =>
    reply.code(201).send({ merchant: await createMerchant(deps, parseJsonObject(request.body), request.log) }),
  );

  scope.post('/merchants/:id/outlets', ADMIN_ROUTE, async (request, reply) => {
    // An id no merchant can have (blank, NUL, a bidi control, too long) is simply not found, as a slug or connection id is.
    const params = MerchantParams.safeParse(request.params);
    if (!params.success) throw new GatewayError('merchant_not_found');
    const { id } = params.data;
    return reply.code(201).send({ merchant: await addOutlet(deps, id, parseJsonObject(request.body), request.log) });
  });
}
