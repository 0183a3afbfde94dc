import { startPostgres } from './test/helpers/postgres-server.ts';
import pg from 'pg';
const s = await startPostgres({ durable: true });
const c = new pg.Client(s.url);
await c.connect();
await c.query('CREATE DATABASE prof');
await c.end();
const u = new URL(s.url);
u.pathname = '/prof';
console.log('URL ' + u.toString());
const stop = () => {
  s.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 1000);
