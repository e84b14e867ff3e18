import { z } from 'zod';
import {
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
} from '../auth/auth.schema';
import { paths } from '../paths';
import { ZLogoutSessionRequest, ZSessionInfo } from '../sessions/sessions.schema';
import { defineRoutes } from './define';

/** The auth routes of the wire contract (contract/define.ts): sign-in, MPIN, who am I, my sessions. */
export const authContract = defineRoutes({
  /**
   * Send a LOGIN OTP to the mobile (public, rate-limited); a number with no account gets the same
   * answer and no SMS.
   */
  loginWithOtp: {
    method: 'POST',
    path: paths.auth.loginWithOtp,
    body: ZLoginWithOtpRequest,
    response: ZLoginWithOtpResponse,
  },
  /** Send another OTP of a purpose after the cool-down (public; 429 inside it). */
  resendOtp: {
    method: 'POST',
    path: paths.auth.resendOtp,
    body: ZResendOtpRequest,
    response: ZLoginWithOtpResponse,
  },
  /** Check the LOGIN OTP and open a session (public, rate-limited). */
  verifyOtp: { method: 'POST', path: paths.auth.verifyOtp, body: ZVerifyOtpRequest, response: ZAuthSession },
  /** Log in with mobile and MPIN (public, rate-limited; the MPIN lockout applies). */
  loginWithMpin: {
    method: 'POST',
    path: paths.auth.loginWithMpin,
    body: ZMpinLoginRequest,
    response: ZAuthSession,
  },
  /** Forgot MPIN: send an OTP with purpose FORGOT_PASSWORD (public, rate-limited). */
  forgotMpin: {
    method: 'POST',
    path: paths.auth.forgotMpin,
    body: ZForgotMpinRequest,
    response: ZLoginWithOtpResponse,
  },
  /** Set a new MPIN with the FORGOT_PASSWORD OTP (public, rate-limited). */
  resetMpin: { method: 'POST', path: paths.auth.resetMpin, body: ZResetMpinRequest, response: z.null() },
  /** End the current session (session required). */
  logout: { method: 'POST', path: paths.auth.logout, response: z.null() },
  /** The logged-in user (session required). */
  me: { method: 'GET', path: paths.users.me, response: ZCurrentUser },
  /** Set or change the logged-in user's MPIN (session required). */
  setMpin: { method: 'POST', path: paths.auth.setMpin, body: ZSetMpinRequest, response: ZCurrentUser },
  /** The logged-in user's live sessions, newest first (session required). */
  mySessions: { method: 'GET', path: paths.sessions.mine, response: z.array(ZSessionInfo) },
  /** Log out one of the logged-in user's sessions (session required). */
  logoutMySession: {
    method: 'POST',
    path: paths.sessions.logoutOne,
    body: ZLogoutSessionRequest,
    response: z.null(),
  },
});
