import { basename, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** One year in seconds: how long a content-hashed asset may be cached (RFC 9111 max-age). */
const HASHED_ASSET_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The Cache-Control of a file of the built web app, by its path on disk (issue 17):
 * - Vite's content-hashed bundles (`assets/…`): `public, max-age=31536000, immutable` (RFC 8246),
 *   as their name changes whenever their bytes do;
 * - everything else (index.html, the service worker and its Workbox runtime, the manifest, the
 *   translations, icons): `no-cache`, so the browser revalidates (ETag, Last-Modified) before use
 *   and a new release is picked up at once.
 */
export const cacheControlOf = (filePath: string): string =>
  filePath.split(sep).includes('assets') && !basename(filePath).startsWith('index.html')
    ? `public, max-age=${HASHED_ASSET_MAX_AGE_S}, immutable`
    : 'no-cache';

/**
 * Serves the built web app from `root` like a production site: the brotli or gzip file Vite wrote
 * beside each asset (`.br`, `.gz`) when the browser accepts it (`preCompressed`; `Vary:
 * Accept-Encoding`), else the file itself, with cacheControlOf's caching. index.html is the index;
 * client routes reach it through the error handler's SPA fallback (reply.sendFile), which goes
 * through the same options.
 */
export const registerWebApp = async (app: FastifyInstance, root: string): Promise<void> => {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlOf(filePath));
    },
  });
};
