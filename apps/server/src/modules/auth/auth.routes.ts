import type { TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import { authContract } from '@kisht/domain/contract/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientInfoFrom } from '../../lib/client-info';
import type { AppContext } from '../../lib/context';
import { contractRoute } from '../../lib/contract-route';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import {
  getCurrentUser,
  listMySessions,
  loginWithMpin,
  loginWithOtp,
  logout,
  logoutMySession,
  otpSentMessage,
  requestOtp,
  resetMpin,
  setMpin,
} from './auth.service';

/**
 * Per-client-address limits (@fastify/rate-limit, counted per route), on top of the per-number and
 * per-account limits of auth.service (OTP) and the MPIN lockout: OTP sends 10 a minute, code and
 * MPIN checks 20 a minute.
 */
const OTP_RATE_LIMIT = { rateLimit: { max: 10, timeWindow: '1 minute' } };
const CHECK_RATE_LIMIT = { rateLimit: { max: 20, timeWindow: '1 minute' } };

/** The envelope of an OTP-sending route: its message says whether the SMS went or is on its way. */
const otpSent = (data: TLoginWithOtpResponse) => ok(data, otpSentMessage(data.delivery));

/** Public auth routes (spec §7 Auth): OTP, MPIN login, forgot and reset MPIN. */
export const authPublicRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(authContract.loginWithOtp, {
      tags: ['auth'],
      summary: 'Send a LOGIN OTP (a number with no account gets the same answer, and no SMS)',
    }),
    config: OTP_RATE_LIMIT,
    handler: async (request) => otpSent(await requestOtp(ctx, { ...request.body, purpose: 'LOGIN' })),
  });
  r.route({
    ...contractRoute(authContract.resendOtp, {
      tags: ['auth'],
      summary: 'Send another OTP of a purpose (after the cool-down)',
    }),
    config: OTP_RATE_LIMIT,
    handler: async (request) => otpSent(await requestOtp(ctx, request.body)),
  });
  r.route({
    ...contractRoute(authContract.verifyOtp, {
      tags: ['auth'],
      summary: 'Verify the LOGIN OTP and open a session',
    }),
    config: CHECK_RATE_LIMIT,
    handler: async (request) =>
      ok(
        await loginWithOtp(ctx, {
          orgId: request.body.orgId,
          mobile: request.body.mobile,
          code: request.body.otp,
          client: clientInfoFrom(request),
        }),
        'Logged in',
      ),
  });
  r.route({
    ...contractRoute(authContract.loginWithMpin, { tags: ['auth'], summary: 'Log in with mobile and MPIN' }),
    config: CHECK_RATE_LIMIT,
    handler: async (request) =>
      ok(await loginWithMpin(ctx, { ...request.body, client: clientInfoFrom(request) }), 'Logged in'),
  });
  r.route({
    ...contractRoute(authContract.forgotMpin, {
      tags: ['auth'],
      summary: 'Forgot MPIN: send an OTP with purpose FORGOT_PASSWORD',
    }),
    config: OTP_RATE_LIMIT,
    handler: async (request) =>
      otpSent(await requestOtp(ctx, { ...request.body, purpose: 'FORGOT_PASSWORD' })),
  });
  r.route({
    ...contractRoute(authContract.resetMpin, {
      tags: ['auth'],
      summary: 'Set a new MPIN with the FORGOT_PASSWORD OTP',
    }),
    config: CHECK_RATE_LIMIT,
    handler: async (request) => {
      await resetMpin(ctx, { ...request.body, code: request.body.otp });
      return ok(null, 'MPIN changed. Log in with your new MPIN');
    },
  });
};

/** Auth routes that need a session: logout, who am I, set MPIN, my sessions. */
export const authSessionRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...contractRoute(authContract.logout, { tags: ['auth'], summary: 'End the current session' }),
    handler: async (request) => {
      await logout(ctx, request.actor);
      return ok(null, 'Logged out');
    },
  });
  r.route({
    ...contractRoute(authContract.me, { tags: ['users'], summary: 'The logged-in user' }),
    handler: async (request) => ok(await getCurrentUser(ctx, request.actor)),
  });
  r.route({
    ...contractRoute(authContract.setMpin, {
      tags: ['auth'],
      summary: "Set or change the logged-in user's MPIN",
    }),
    handler: async (request) => ok(await setMpin(ctx, request.actor, request.body.mpin), 'MPIN set'),
  });
  r.route({
    ...contractRoute(authContract.mySessions, {
      tags: ['sessions'],
      summary: "The logged-in user's live sessions",
    }),
    handler: async (request) => ok(await listMySessions(ctx, request.actor)),
  });
  r.route({
    ...contractRoute(authContract.logoutMySession, {
      tags: ['sessions'],
      summary: 'Log out one of my sessions',
    }),
    handler: async (request) => {
      await logoutMySession(ctx, request.actor, request.body.session_id);
      return ok(null, 'Session logged out');
    },
  });
};
