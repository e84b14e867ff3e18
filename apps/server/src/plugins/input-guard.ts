import { AppErrorCode } from '@kisht/domain/common/errors';
import type { FastifyInstance } from 'fastify';

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain a NUL character';

/**
 * How deep a request's JSON may nest, in arrays and objects. Kisht's deepest body is a few levels;
 * a hostile one of 10,000 `[` in 20 KB would otherwise be walked level after level (issue 27).
 */
export const MAX_INPUT_DEPTH = 64;

/**
 * What the guard found in `value` (params, query or body): the dotted paths (`firstName`,
 * `items.0.name`) of every string or key holding a NUL, and whether it nests deeper than
 * MAX_INPUT_DEPTH. Walks with a stack of its own, so no input can exhaust the call stack.
 */
const inspect = (value: unknown): { nulPaths: string[]; isTooDeep: boolean } => {
  const nulPaths: string[] = [];
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: item, path } = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes(NUL)) nulPaths.push(path.join('.') || '(root)');
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (path.length >= MAX_INPUT_DEPTH) return { nulPaths, isTooDeep: true };
    const entries = Array.isArray(item)
      ? item.map((child, index) => [String(index), child] as const)
      : Object.entries(item);
    for (const [key, child] of entries.reverse()) {
      if (key.includes(NUL)) nulPaths.push([...path, key.replaceAll(NUL, '\\0')].join('.'));
      pending.push({ value: child, path: [...path, key] });
    }
  }
  return { nulPaths, isTooDeep: false };
};

/**
 * Refuses, with 400 VALIDATION_FAILED naming each field, a request whose path parameters, query or
 * JSON body holds a NUL character anywhere: PostgreSQL text cannot store one, so it would otherwise
 * reach the database and answer 500 (found by the fuzz suite, issue 12); and one whose params,
 * query or body nests deeper than MAX_INPUT_DEPTH (field `body`, issue 27), before anything walks
 * it recursively. Runs before every route's own validation, so no route can forget it.
 */
export const registerInputGuard = (app: FastifyInstance): void => {
  app.addHook('preValidation', async (request, reply) => {
    const parts = { params: request.params, query: request.query, body: request.body };
    const fields: { field: string; message: string }[] = [];
    for (const [part, value] of Object.entries(parts)) {
      const { nulPaths, isTooDeep } = inspect(value);
      if (isTooDeep)
        fields.push({ field: part, message: `must not nest deeper than ${MAX_INPUT_DEPTH} levels` });
      for (const field of nulPaths) fields.push({ field, message: NUL_MESSAGE });
    }
    if (fields.length === 0) return;
    return reply.status(400).send({
      response: 'failure',
      message: `Invalid ${[...new Set(fields.map((f) => f.field))].join(', ')}`,
      code: AppErrorCode.VALIDATION_FAILED,
      fields,
      data: null,
    });
  });
};
