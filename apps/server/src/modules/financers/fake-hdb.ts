import { randomBytes } from 'node:crypto';
import { isValidImei } from '@kisht/domain/common/identifiers';
import Fastify from 'fastify';
import { z } from 'zod';
import { HDB_CREATE_CUSTOMER_PATH, type THdbCreateCustomerBody } from './hdb.adapter';

const ZPaise = z.number().int().nonnegative();

/** What the fake checks in every create-customer body (the adapter's shape, hdb.adapter.ts). */
const ZFakeHdbBody = z
  .object({
    partnerCustomerId: z.string().regex(/^\d+-\d+$/),
    applicant: z.object({
      firstName: z.string().min(1),
      lastName: z.string().min(1),
      mobile: z.string().regex(/^\+91[6-9]\d{9}$/),
      email: z.string().nullable(),
      dateOfBirth: z.string().nullable(),
      address: z.object({ line1: z.string(), city: z.string() }).passthrough().nullable(),
    }),
    device: z.object({
      imei1: z.string().refine(isValidImei, 'IMEI must be 15 digits with a valid check digit'),
      imei2: z.string().refine(isValidImei, 'IMEI must be 15 digits with a valid check digit'),
      model: z.string().min(1),
    }),
    loan: z.object({
      pricePaise: ZPaise,
      downPaymentPaise: ZPaise,
      loanAmountPaise: ZPaise.positive(),
      tenureMonths: z.number().int().positive(),
      annualRateBps: z.number().int().nonnegative(),
      emiPaise: ZPaise.positive(),
    }),
  })
  .refine((b) => b.loan.loanAmountPaise <= b.loan.pricePaise - b.loan.downPaymentPaise, {
    path: ['loan', 'loanAmountPaise'],
    message: 'loan amount (paise) exceeds price minus down payment',
  });

/** A running fake HDB: its URL and key, what it accepted, and switches for tests. */
export type TFakeHdb = {
  apiUrl: string;
  apiKey: string;
  /** Every body it accepted, oldest first (a repeated idempotency key is not added again). */
  accepted: THdbCreateCustomerBody[];
  /** Every request it got, accepted or not. */
  requestCount: number;
  /** While false the fake answers 503 to everything, as HDB does during an outage. */
  isAvailable: boolean;
  close: () => Promise<void>;
};

/**
 * A local stand-in for HDB's customer API (the adapter's request shape; HDB's real one is not
 * public), for tests and for development without HDB_API_URL: `POST /v1/customers` checks the
 * x-api-key header (401), the body (422 naming the field: IMEIs Luhn-valid, money in integer
 * paise, loan ≤ price − down payment) and answers `{ reference: 'HDB…' }`, the same reference again
 * for a repeated idempotency-key. Listens on 127.0.0.1, port 0.
 */
export const startFakeHdb = async (options: { apiKey?: string } = {}): Promise<TFakeHdb> => {
  const app = Fastify({ logger: false });
  const apiKey = options.apiKey ?? `fake-hdb-${randomBytes(8).toString('hex')}`;
  const references = new Map<string, string>();
  const state: TFakeHdb = {
    apiUrl: '',
    apiKey,
    accepted: [],
    requestCount: 0,
    isAvailable: true,
    close: () => app.close(),
  };

  app.post(HDB_CREATE_CUSTOMER_PATH, async (request, reply) => {
    state.requestCount += 1;
    if (!state.isAvailable) return reply.code(503).send({ error: 'service unavailable' });
    if (request.headers['x-api-key'] !== apiKey) return reply.code(401).send({ error: 'bad api key' });
    const parsed = ZFakeHdbBody.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(422).send({
        error: 'invalid request',
        fields: parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })),
      });
    }
    const key = request.headers['idempotency-key'];
    const known = typeof key === 'string' ? references.get(key) : undefined;
    if (known) return reply.code(200).send({ reference: known });
    const reference = `HDB${Date.now().toString(36).toUpperCase()}${randomBytes(3).toString('hex').toUpperCase()}`;
    if (typeof key === 'string') references.set(key, reference);
    state.accepted.push(request.body as THdbCreateCustomerBody);
    return reply.code(201).send({ reference });
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  state.apiUrl = `http://127.0.0.1:${port}`;
  return state;
};
