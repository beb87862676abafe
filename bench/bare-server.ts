// The baseline: bare Fastify answering a JSON POST of the same body, no auth, no validation, no storage.
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
app.post('/webhooks/generic', async (request) => {
  const body = request.body as { transaction?: { id?: string } };
  return { status: 'processed', membershipId: '', pointsEarned: 0, stampsUpdated: [], warning: null, id: body.transaction?.id };
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
