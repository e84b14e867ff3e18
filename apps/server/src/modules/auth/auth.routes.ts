import {
  ZAuthSession,
  ZCurrentUser,
  ZLoginWithOtpRequest,
  ZLoginWithOtpResponse,
  ZVerifyOtpRequest,
} from '@kisht/domain/auth/auth.schema';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { getCurrentUser, loginWithOtp, logout, requestOtp } from './auth.service';

/** Public auth routes: send OTP and verify it (spec §7 Auth). */
export const authPublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    paths.auth.loginWithOtp,
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a LOGIN OTP to a registered mobile number',
        body: ZLoginWithOtpRequest,
        response: { 200: zEnvelope(ZLoginWithOtpResponse) },
      },
    },
    async (request) => ok(await requestOtp(ctx, { ...request.body, purpose: 'LOGIN' }), 'OTP sent'),
  );
  r.post(
    paths.auth.verifyOtp,
    {
      schema: {
        tags: ['auth'],
        summary: 'Verify the LOGIN OTP and open a session',
        body: ZVerifyOtpRequest,
        response: { 200: zEnvelope(ZAuthSession) },
      },
    },
    async (request) => {
      const deviceDetails = request.headers['device-details'];
      const session = await loginWithOtp(ctx, {
        orgId: request.body.orgId,
        mobile: request.body.mobile,
        code: request.body.otp,
        client: {
          ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
          ...(typeof request.headers.platform === 'string' ? { platform: request.headers.platform } : {}),
          ...(typeof deviceDetails === 'string' ? { deviceDetails } : {}),
        },
      });
      return ok(session, 'Logged in');
    },
  );
};

/** Auth routes that need a session: logout and who am I. */
export const authSessionRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    paths.auth.logout,
    {
      schema: { tags: ['auth'], summary: 'End the current session', response: { 200: zEnvelope(z.null()) } },
    },
    async (request) => {
      await logout(ctx, request.actor);
      return ok(null, 'Logged out');
    },
  );
  r.get(
    paths.users.me,
    {
      schema: { tags: ['users'], summary: 'The logged-in user', response: { 200: zEnvelope(ZCurrentUser) } },
    },
    async (request) => ok(await getCurrentUser(ctx, request.actor)),
  );
};
