import {
  type TLoginWithOtpResponse,
  ZAuthSession,
  ZCurrentUser,
  ZForgotMpinRequest,
  ZLoginWithOtpRequest,
  ZLoginWithOtpResponse,
  ZMpinLoginRequest,
  ZResendOtpRequest,
  ZResetMpinRequest,
  ZSetMpinRequest,
  ZVerifyOtpRequest,
} from '@kisht/domain/auth/auth.schema';
import { zEnvelope } from '@kisht/domain/common/envelope';
import { paths } from '@kisht/domain/paths';
import { ZLogoutSessionRequest, ZSessionInfo } from '@kisht/domain/sessions/sessions.schema';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientInfoFrom } from '../../lib/client-info';
import type { AppContext } from '../../lib/context';
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
  r.post(
    paths.auth.loginWithOtp,
    {
      config: OTP_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Send a LOGIN OTP (a number with no account gets the same answer, and no SMS)',
        body: ZLoginWithOtpRequest,
        response: { 200: zEnvelope(ZLoginWithOtpResponse) },
      },
    },
    async (request) => otpSent(await requestOtp(ctx, { ...request.body, purpose: 'LOGIN' })),
  );
  r.post(
    paths.auth.resendOtp,
    {
      config: OTP_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Send another OTP of a purpose (after the cool-down)',
        body: ZResendOtpRequest,
        response: { 200: zEnvelope(ZLoginWithOtpResponse) },
      },
    },
    async (request) => otpSent(await requestOtp(ctx, request.body)),
  );
  r.post(
    paths.auth.verifyOtp,
    {
      config: CHECK_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Verify the LOGIN OTP and open a session',
        body: ZVerifyOtpRequest,
        response: { 200: zEnvelope(ZAuthSession) },
      },
    },
    async (request) =>
      ok(
        await loginWithOtp(ctx, {
          orgId: request.body.orgId,
          mobile: request.body.mobile,
          code: request.body.otp,
          client: clientInfoFrom(request),
        }),
        'Logged in',
      ),
  );
  r.post(
    paths.auth.loginWithMpin,
    {
      config: CHECK_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Log in with mobile and MPIN',
        body: ZMpinLoginRequest,
        response: { 200: zEnvelope(ZAuthSession) },
      },
    },
    async (request) =>
      ok(await loginWithMpin(ctx, { ...request.body, client: clientInfoFrom(request) }), 'Logged in'),
  );
  r.post(
    paths.auth.forgotMpin,
    {
      config: OTP_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Forgot MPIN: send an OTP with purpose FORGOT_PASSWORD',
        body: ZForgotMpinRequest,
        response: { 200: zEnvelope(ZLoginWithOtpResponse) },
      },
    },
    async (request) => otpSent(await requestOtp(ctx, { ...request.body, purpose: 'FORGOT_PASSWORD' })),
  );
  r.post(
    paths.auth.resetMpin,
    {
      config: CHECK_RATE_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Set a new MPIN with the FORGOT_PASSWORD OTP',
        body: ZResetMpinRequest,
        response: { 200: zEnvelope(z.null()) },
      },
    },
    async (request) => {
      await resetMpin(ctx, { ...request.body, code: request.body.otp });
      return ok(null, 'MPIN changed. Log in with your new MPIN');
    },
  );
};

/** Auth routes that need a session: logout, who am I, set MPIN, my sessions. */
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
  r.post(
    paths.auth.setMpin,
    {
      schema: {
        tags: ['auth'],
        summary: "Set or change the logged-in user's MPIN",
        body: ZSetMpinRequest,
        response: { 200: zEnvelope(ZCurrentUser) },
      },
    },
    async (request) => ok(await setMpin(ctx, request.actor, request.body.mpin), 'MPIN set'),
  );
  r.get(
    paths.sessions.mine,
    {
      schema: {
        tags: ['sessions'],
        summary: "The logged-in user's live sessions",
        response: { 200: zEnvelope(z.array(ZSessionInfo)) },
      },
    },
    async (request) => ok(await listMySessions(ctx, request.actor)),
  );
  r.post(
    paths.sessions.logoutOne,
    {
      schema: {
        tags: ['sessions'],
        summary: 'Log out one of my sessions',
        body: ZLogoutSessionRequest,
        response: { 200: zEnvelope(z.null()) },
      },
    },
    async (request) => {
      await logoutMySession(ctx, request.actor, request.body.session_id);
      return ok(null, 'Session logged out');
    },
  );
};
