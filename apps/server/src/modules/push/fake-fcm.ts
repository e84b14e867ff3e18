import { generateKeyPairSync } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { importSPKI, jwtVerify } from 'jose';
import { FCM_SCOPE, type TServiceAccount } from './fcm.adapter';

/** One message the fake FCM accepted or refused. */
export type TFakeFcmMessage = {
  token: string;
  data: Record<string, string>;
  android: Record<string, unknown>;
};

/**
 * A local stand-in for Firebase Cloud Messaging HTTP v1, for tests: the OAuth token endpoint (JWT
 * bearer grant: checks the assertion's signature against the service account's public key, its
 * issuer, audience and scope) and `POST /v1/projects/{project}/messages:send` (checks the bearer
 * token and the message). `answer` decides the reply to a send (default 200); `messages` records
 * what it got. Listens on 127.0.0.1, port 0.
 */
export const startFakeFcm = async (): Promise<{
  serviceAccount: TServiceAccount;
  apiUrl: string;
  messages: TFakeFcmMessage[];
  tokenRequests: number;
  /** How the fake answers a send (status, body, and headers such as Retry-After). */
  answer: (message: TFakeFcmMessage) => { status: number; body: unknown; headers?: Record<string, string> };
  close: () => Promise<void>;
}> => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app: FastifyInstance = Fastify({ logger: false });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const accessToken = `fake-access-${Date.now()}`;
  const state = {
    serviceAccount: undefined as unknown as TServiceAccount,
    apiUrl: '',
    messages: [] as TFakeFcmMessage[],
    tokenRequests: 0,
    answer: (
      _message: TFakeFcmMessage,
    ): { status: number; body: unknown; headers?: Record<string, string> } => ({
      status: 200,
      body: { name: `projects/kisht-test/messages/${Date.now()}` },
    }),
    close: () => app.close(),
  };
  const spki = await importSPKI(publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'RS256');

  app.post('/token', async (request, reply) => {
    state.tokenRequests += 1;
    const body = request.body as Record<string, string>;
    if (body.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !body.assertion) {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    try {
      const { payload } = await jwtVerify(body.assertion, spki, {
        issuer: state.serviceAccount.client_email,
        audience: state.serviceAccount.token_uri,
      });
      if (payload.scope !== FCM_SCOPE) return reply.code(400).send({ error: 'invalid_scope' });
    } catch {
      return reply.code(400).send({ error: 'invalid_grant' });
    }
    return { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' };
  });

  app.post('/v1/projects/:project/messages:send', async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${accessToken}`) {
      return reply.code(401).send({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    }
    const { project } = request.params as { project: string };
    if (project !== state.serviceAccount.project_id) return reply.code(404).send({ error: { code: 404 } });
    const message = (request.body as { message?: TFakeFcmMessage }).message;
    if (!message?.token || typeof message.data !== 'object') {
      return reply.code(400).send({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    }
    state.messages.push(message);
    const answer = state.answer(message);
    return reply
      .code(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body);
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  state.apiUrl = `http://127.0.0.1:${port}`;
  state.serviceAccount = {
    project_id: 'kisht-test',
    client_email: 'kisht-server@kisht-test.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    token_uri: `${state.apiUrl}/token`,
  };
  return state;
};
