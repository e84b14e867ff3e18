import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';

/** The security scheme of the partner API: the key as a bearer token. */
export const PARTNER_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'kisht_pk_<public id>_<secret>',
  description: "An organisation's partner API key, made by its admin (shown once).",
} as const;

type TOpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  paths?: Record<string, unknown>;
  components?: Record<string, unknown> & { securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
};

const documents = new WeakMap<FastifyInstance, TOpenApiDocument>();

/**
 * The partner API's own OpenAPI 3 document (issue 30): the routes under paths.partner.prefix taken
 * from the server's whole document (@fastify/swagger, built from the same zod schemas the routes
 * validate with), with its own title and the bearer key scheme. Built once per server.
 */
export const partnerOpenApiDocument = (app: FastifyInstance): TOpenApiDocument => {
  const cached = documents.get(app);
  if (cached) return cached;
  const whole = app.swagger() as unknown as TOpenApiDocument;
  const document: TOpenApiDocument = {
    openapi: whole.openapi,
    info: {
      title: 'Kisht partner API',
      version: '1.0.0',
      description:
        "A lender's loan-management system creates loans with the customer's consent, reads loans and phone " +
        'state, locks, unlocks and releases phones through the command gate, and records payments. Send the ' +
        "organisation's API key as `Authorization: Bearer kisht_pk_…`. Money is integer paise; times ISO 8601 " +
        'UTC. Events come back as signed webhooks (docs/webhooks.md).',
    },
    paths: Object.fromEntries(
      Object.entries(whole.paths ?? {}).filter(([path]) => path.startsWith(paths.partner.prefix)),
    ),
    components: {
      ...(whole.components ?? {}),
      securitySchemes: { partnerKey: PARTNER_SECURITY_SCHEME },
    },
    security: [{ partnerKey: [] }],
  };
  documents.set(app, document);
  return document;
};
