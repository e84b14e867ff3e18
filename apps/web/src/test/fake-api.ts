import { vi } from 'vitest';

/** Answers one API path: the envelope's `data`, or a whole Response (a failure, a CSV file). */
export type TFakeHandler = (request: Request, url: URL) => unknown;

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** A success envelope around `data`. */
export const successResponse = (data: unknown): Response =>
  new Response(JSON.stringify({ response: 'success', message: 'ok', data }), { headers: JSON_HEADERS });

/** A failure envelope, as the server sends it (design §3). */
export const failureResponse = (
  status: number,
  message: string,
  options: { code?: string; fields?: { field: string; message: string }[] } = {},
): Response =>
  new Response(
    JSON.stringify({
      response: 'failure',
      message,
      code: options.code ?? 'VALIDATION_FAILED',
      ...(options.fields ? { fields: options.fields } : {}),
      data: null,
    }),
    { status, headers: JSON_HEADERS },
  );

/**
 * Replaces global fetch with a fake API for render tests: each request is recorded and answered
 * by the handler of its pathname (a path without a handler stays pending, like a slow server).
 */
export const stubApi = (handlers: Record<string, TFakeHandler>) => {
  const requests: Request[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request.clone());
    const url = new URL(request.url);
    const handler = handlers[url.pathname];
    if (!handler) return new Promise<Response>(() => {});
    const answer = await handler(request, url);
    return answer instanceof Response ? answer : successResponse(answer);
  });
  vi.stubGlobal('fetch', fetchFn);
  /** The recorded requests to one path. */
  const requestsTo = (pathname: string) =>
    requests.filter((request) => new URL(request.url).pathname === pathname);
  /** The JSON bodies of the recorded requests to one path, in the order they were sent. */
  const bodiesTo = (pathname: string) =>
    Promise.all(requestsTo(pathname).map((request) => request.clone().json() as Promise<unknown>));
  return { requests, requestsTo, bodiesTo, fetchFn };
};
