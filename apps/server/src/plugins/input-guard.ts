import { AppErrorCode } from '@kisht/domain/common/errors';
import type { FastifyInstance } from 'fastify';

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain a NUL character';

/** The dotted paths (`firstName`, `items.0.name`) of every string, or key, in `value` holding a NUL. */
const pathsWithNul = (value: unknown, path: string[] = [], found: string[] = []): string[] => {
  if (typeof value === 'string') {
    if (value.includes(NUL)) found.push(path.join('.') || '(root)');
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) pathsWithNul(item, [...path, String(index)], found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) found.push([...path, key.replaceAll(NUL, '\\0')].join('.'));
      pathsWithNul(item, [...path, key], found);
    }
  }
  return found;
};

/**
 * Refuses, with 400 VALIDATION_FAILED naming each field, a request whose path parameters, query or
 * JSON body holds a NUL character anywhere: PostgreSQL text cannot store one, so it would otherwise
 * reach the database and answer 500 (found by the fuzz suite, issue 12). Runs before every route's
 * own validation, so no route can forget it.
 */
export const registerInputGuard = (app: FastifyInstance): void => {
  app.addHook('preValidation', async (request, reply) => {
    const fields = [
      ...pathsWithNul(request.params),
      ...pathsWithNul(request.query),
      ...pathsWithNul(request.body),
    ];
    if (fields.length === 0) return;
    return reply.status(400).send({
      response: 'failure',
      message: `Invalid ${[...new Set(fields)].join(', ')}`,
      code: AppErrorCode.VALIDATION_FAILED,
      fields: fields.map((field) => ({ field, message: NUL_MESSAGE })),
      data: null,
    });
  });
};
