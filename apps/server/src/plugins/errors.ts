import type { TFailure, TFieldError } from '@kisht/domain/common/envelope';
import { APP_ERROR_HTTP_STATUS, AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client';

const failure = (code: string, message: string, fields?: TFieldError[]): TFailure => ({
  response: 'failure',
  message,
  code,
  ...(fields ? { fields } : {}),
  data: null,
});

/** Turns a zod validation issue into the field name a form knows (`body.imei1` → `imei1`). */
const fieldName = (instancePath: string, issuePath: unknown): string => {
  if (Array.isArray(issuePath) && issuePath.length > 0) return issuePath.join('.');
  return instancePath.replace(/^\//, '').replaceAll('/', '.') || '(root)';
};

/**
 * The error handler of design §3: validation → 400 naming every failing field; AppError → its
 * mapped status and code; other client errors keep their 4xx; the database briefly out of reach
 * (isDatabaseUnavailable) answers 503 SERVICE_UNAVAILABLE with Retry-After; anything else is
 * logged and answers 500 with no internals. Unknown GET paths outside the API serve the web app when spaFallback
 * says so.
 */
export const registerErrorHandling = (
  app: FastifyInstance,
  options: { spaFallback: ((url: string) => boolean) | null },
): void => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((v) => ({
        field: fieldName(
          v.instancePath,
          (v.params as { issue?: { path?: unknown } } | undefined)?.issue?.path,
        ),
        message: v.message ?? 'Invalid value',
      }));
      const names = [...new Set(fields.map((f) => f.field))].join(', ');
      return reply.status(400).send(failure(AppErrorCode.VALIDATION_FAILED, `Invalid ${names}`, fields));
    }
    if (error instanceof AppError) {
      const status = APP_ERROR_HTTP_STATUS[error.code];
      if (status >= 500) request.log.error({ err: error }, 'application error');
      return reply.status(status).send(failure(error.code, error.message, error.fields));
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code =
        status === 429 ? AppErrorCode.RATE_LIMITED : ((error as FastifyError).code ?? 'BAD_REQUEST');
      return reply.status(status).send(failure(code, error.message));
    }
    // The database was briefly out of reach (a failover, a restart) and the retries did not outlast
    // it: nothing of the request stayed, and the same request may be sent again (issue 27).
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '1')
        .send(
          failure(AppErrorCode.SERVICE_UNAVAILABLE, 'The service was briefly unavailable; please try again'),
        );
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(failure(AppErrorCode.INTERNAL, 'Something went wrong'));
  });

  app.setNotFoundHandler((request, reply) => {
    // Client-side routes of the web app get its index.html; unknown API paths get a 404 envelope.
    if (request.method === 'GET' && options.spaFallback?.(request.url)) return reply.sendFile('index.html');
    return reply
      .status(404)
      .send(failure(AppErrorCode.NOT_FOUND, `No route ${request.method} ${request.url.split('?')[0]}`));
  });
};
