import { CLIENT_HEADERS } from '@kisht/domain/client/client-headers';
import type { FastifyRequest } from 'fastify';
import type { TClientInfo } from '../modules/auth/auth.service';

const MAX_HEADER_LENGTH = 512;

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value.slice(0, MAX_HEADER_LENGTH) : undefined;
};

/** The client details of spec §7 a request carries, trimmed to a sane length, for the session row. */
export const clientInfoFrom = (request: FastifyRequest): TClientInfo => {
  const entries = {
    userAgent: header(request, 'user-agent'),
    platform: header(request, CLIENT_HEADERS.platform),
    browserName: header(request, CLIENT_HEADERS.browserName),
    browserVersion: header(request, CLIENT_HEADERS.browserVersion),
    deviceType: header(request, CLIENT_HEADERS.deviceType),
    devicePlatform: header(request, CLIENT_HEADERS.devicePlatform),
    deviceDetails: header(request, CLIENT_HEADERS.deviceDetails),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as TClientInfo;
};
