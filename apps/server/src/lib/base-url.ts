import type { FastifyRequest } from 'fastify';
import type { TConfig } from '../config';

/** The public base URL for links devices follow: PUBLIC_URL, else the request's own origin. */
export const publicBaseUrl = (config: TConfig, request: FastifyRequest): string =>
  (config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).replace(/\/$/, '');
