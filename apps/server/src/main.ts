import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadConfig } from './config';

/** Starts Kisht: `npm start` from the repository root (README). */
const config = loadConfig();
// Loaded only once the configuration is valid: a bad setting stops the process (exit 1, the key
// named) before any database driver or broker client is even loaded, let alone a port bound.
const { buildApp } = await import('./app');
if (!config.DATABASE_URL && !config.PGLITE_DATA_DIR.startsWith('memory://')) {
  mkdirSync(config.PGLITE_DATA_DIR, { recursive: true });
}
const app = await buildApp(config);
const shutdown = async (signal: string) => {
  app.log.info(`${signal} received, shutting down`);
  await app.close();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
await app.listen({ host: config.HOST, port: config.PORT });
// The bound port, not the configured one: PORT=0 asks for any free port (the scale-out test does).
const { port } = app.server.address() as AddressInfo;
app.log.info({ port }, `Kisht is serving on http://localhost:${port} (API docs at /docs)`);
if (config.NODE_ENV === 'development') {
  app.log.warn(
    'NODE_ENV=development: development secrets, OTPs shown in responses and the log, demo logins. Not for real customers.',
  );
}
