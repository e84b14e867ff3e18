import { CONTRACT_ROUTES } from '@kisht/domain/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES_FROM_CONTRACT } from './lib/contract-route';
import { createTestApp, type TestApp } from './test/harness';

// Issue 28: one table of every route (domain contract/routes.ts) from which the server registers
// its routes and the web app types its calls. This checks the server against it.

let t: TestApp;
let served: string[];
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
  const doc = t.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  served = Object.entries(doc.paths ?? {}).flatMap(([path, operations]) =>
    Object.keys(operations).map(
      // OpenAPI writes a path parameter {name}; Fastify and the contract :name.
      (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
    ),
  );
});
afterAll(async () => {
  await t?.close();
});

const contractRoutes = () => CONTRACT_ROUTES.map((route) => `${route.method} ${route.path}`);

describe('the wire contract (issue 28)', () => {
  it('names each route once', () => {
    const routes = contractRoutes();
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((route, index) => routes.indexOf(route) !== index)).toEqual([]);
  });

  it('is served: every route of the contract is registered, with its method', () => {
    expect(served.length).toBeGreaterThan(0);
    const missing = CONTRACT_ROUTES.filter(
      (route) => !t.app.hasRoute({ method: route.method, url: route.path }),
    ).map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });

  it('is all that is served: every route in /docs is in the contract and registered from it', () => {
    const routes = new Set(contractRoutes());
    expect(served.filter((route) => !routes.has(route))).toEqual([]);
    expect(served.filter((route) => !ROUTES_FROM_CONTRACT.has(route))).toEqual([]);
  });
});
