import type { AddressInfo } from 'node:net';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TRouteContract } from '@kisht/domain/contract/define';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { TConfig } from '../../config';
import { contractRoute, type TRouteDocs } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { startFakeGateway, type TFakeGateway } from './fake-gateway';
import { createRazorpayGateway, type TPaymentGateway } from './payment-gateway';

/**
 * Which gateway the server talks to (docs/payment-gateway.md):
 *   - RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET set: Razorpay's HTTP API at RAZORPAY_API_URL;
 *   - else outside production: the fake gateway (fake-gateway.ts), started in-process on an
 *     ephemeral port the first time a payment needs it, posting its webhooks to this server;
 *   - else (production without keys): none, every payment answers 503 PAYMENT_GATEWAY_UNAVAILABLE.
 */
export type TGatewayProvider = {
  /**
   * The gateway; `requestHostname` (the host the browser reached us at) names the in-process
   * fake's checkout script, so a phone on the network can load it. Throws
   * PAYMENT_GATEWAY_UNAVAILABLE when there is none.
   */
  get: (requestHostname?: string) => Promise<TPaymentGateway>;
  /** The in-process fake, once started (tests and the demo), else null. */
  fake: () => TFakeGateway | null;
  close: () => Promise<void>;
};

const none = () =>
  new AppError(
    AppErrorCode.PAYMENT_GATEWAY_UNAVAILABLE,
    'Online payment is not set up on this server. Nothing was charged',
  );

/**
 * Where a gateway on this machine (the in-process fake) reaches `path` of this server: its
 * loopback address once it listens, else null.
 */
export const loopbackUrlOf = (app: FastifyInstance, path: string) => (): string | null => {
  const address = app.server.address() as AddressInfo | string | null;
  return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}${path}` : null;
};

/** Builds the provider from config; `webhookUrl` says where the in-process fake posts webhooks. */
export const createGatewayProvider = (
  config: TConfig,
  options: { webhookUrl: () => string | null; log: FastifyBaseLogger },
): TGatewayProvider => {
  if (config.RAZORPAY_KEY_ID && config.RAZORPAY_KEY_SECRET) {
    if (!config.RAZORPAY_WEBHOOK_SECRET)
      options.log.warn('RAZORPAY_WEBHOOK_SECRET is not set: payment webhooks will be refused');
    const gateway = createRazorpayGateway({
      apiUrl: config.RAZORPAY_API_URL,
      keyId: config.RAZORPAY_KEY_ID,
      keySecret: config.RAZORPAY_KEY_SECRET,
      // Without a webhook secret no signature can match: webhooks are refused, callbacks still work.
      webhookSecret: config.RAZORPAY_WEBHOOK_SECRET ?? '',
      checkoutScriptUrl: config.RAZORPAY_CHECKOUT_URL,
    });
    return {
      get: async () => {
        if (!config.RAZORPAY_WEBHOOK_SECRET)
          return { ...gateway, verifyWebhookSignature: () => false } satisfies TPaymentGateway;
        return gateway;
      },
      fake: () => null,
      close: async () => {},
    };
  }
  if (config.NODE_ENV === 'production') {
    return {
      get: async () => {
        throw none();
      },
      fake: () => null,
      close: async () => {},
    };
  }
  let started: Promise<TFakeGateway> | null = null;
  let fake: TFakeGateway | null = null;
  // In development the fake listens where the server does, so a phone on the network reaches it.
  const host = config.NODE_ENV === 'development' ? config.HOST : '127.0.0.1';
  return {
    get: async (requestHostname) => {
      started ??= startFakeGateway({ webhookUrl: options.webhookUrl, host }).then((gateway) => {
        fake = gateway;
        options.log.info(`fake payment gateway (no RAZORPAY_KEY_ID) at ${gateway.url}`);
        return gateway;
      });
      const running = await started;
      const port = new URL(running.url).port;
      const scriptHost =
        host === '0.0.0.0' && requestHostname ? requestHostname : new URL(running.url).hostname;
      return {
        ...createRazorpayGateway({
          apiUrl: running.url,
          keyId: running.keyId,
          keySecret: running.keySecret,
          webhookSecret: running.webhookSecret,
          checkoutScriptUrl: `http://${scriptHost}:${port}/v1/checkout.js`,
          retryMinTimeoutMs: 50,
        }),
      };
    },
    fake: () => fake,
    close: async () => {
      if (started) await (await started).close();
    },
  };
};

/** What a gateway webhook's handler gets: the exact body bytes and the X-Razorpay-Signature header. */
export type TGatewayWebhookInput = { rawBody: Buffer; signature: string | undefined };

/**
 * Registers a gateway webhook route (public; payments and AutoPay): its own scope keeps a JSON
 * body as the bytes that were signed (anything else is 415; at most 1 MiB), and the handler's
 * answer goes out in the envelope. `handle` checks the signature (payment-gateway
 * verifiedWebhookEvent).
 */
export const registerGatewayWebhook = async (
  app: FastifyInstance,
  route: { contract: TRouteContract; docs: TRouteDocs },
  handle: (input: TGatewayWebhookInput) => Promise<unknown>,
): Promise<void> => {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.route({
      ...contractRoute(route.contract, route.docs),
      handler: async (request) => {
        const signature = request.headers['x-razorpay-signature'];
        return ok(
          await handle({
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            signature: typeof signature === 'string' ? signature : undefined,
          }),
        );
      },
    });
  });
};
