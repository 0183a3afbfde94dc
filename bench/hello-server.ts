import Fastify from 'fastify';

/**
 * The baseline: a bare fastify hello-world with the same framework defaults the studio server starts from (no logger),
 * run as its own process so that "GET one line" is compared against the best this machine can do over HTTP.
 */
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`hello server listening on ${address}`);

const close = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGINT', close);
process.once('SIGTERM', close);
