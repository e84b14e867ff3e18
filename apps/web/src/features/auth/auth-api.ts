import type {
  TAuthSession,
  TCurrentUser,
  TForgotMpinRequest,
  TLoginWithOtpRequest,
  TLoginWithOtpResponse,
  TMpinLoginRequest,
  TResendOtpRequest,
  TResetMpinRequest,
  TSetMpinRequest,
  TVerifyOtpRequest,
} from '@kisht/domain/auth/auth.schema';
import type { TOauthCompleteRequest, TOauthUrl } from '@kisht/domain/auth/oauth.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginWithOtp: build.mutation<TLoginWithOtpResponse, TLoginWithOtpRequest>({
      query: (body) => ({ url: paths.auth.loginWithOtp, method: 'POST', body }),
    }),
    verifyOtp: build.mutation<TAuthSession, TVerifyOtpRequest>({
      query: (body) => ({ url: paths.auth.verifyOtp, method: 'POST', body }),
    }),
    /** Another OTP of the same purpose; the server answers 429 inside the cool-down. */
    resendOtp: build.mutation<TLoginWithOtpResponse, TResendOtpRequest>({
      query: (body) => ({ url: paths.auth.resendOtp, method: 'POST', body }),
    }),
    loginWithMpin: build.mutation<TAuthSession, TMpinLoginRequest>({
      query: (body) => ({ url: paths.auth.loginWithMpin, method: 'POST', body }),
    }),
    /** Sends an OTP with purpose FORGOT_PASSWORD. */
    forgotMpin: build.mutation<TLoginWithOtpResponse, TForgotMpinRequest>({
      query: (body) => ({ url: paths.auth.forgotMpin, method: 'POST', body }),
    }),
    resetMpin: build.mutation<null, TResetMpinRequest>({
      query: (body) => ({ url: paths.auth.resetMpin, method: 'POST', body }),
    }),
    /** Sets the signed-in user's MPIN. */
    setMpin: build.mutation<TCurrentUser, TSetMpinRequest>({
      query: (body) => ({ url: paths.auth.setMpin, method: 'POST', body }),
    }),
    /** Sign in with Google: the provider's authorization URL for the organisation (404 when not set up). */
    getOauthUrl: build.mutation<TOauthUrl, number>({
      query: (orgId) => ({ url: paths.oauth.url, params: { org_id: orgId } }),
    }),
    /** Exchanges the one-time ticket the Google callback put in the login page's URL for a session. */
    completeOauth: build.mutation<TAuthSession, TOauthCompleteRequest>({
      query: (body) => ({ url: paths.oauth.complete, method: 'POST', body }),
    }),
    logout: build.mutation<null, void>({
      query: () => ({ url: paths.auth.logout, method: 'POST' }),
    }),
  }),
});

export const {
  useLoginWithOtpMutation,
  useVerifyOtpMutation,
  useResendOtpMutation,
  useLoginWithMpinMutation,
  useForgotMpinMutation,
  useResetMpinMutation,
  useSetMpinMutation,
  useLogoutMutation,
  useGetOauthUrlMutation,
  useCompleteOauthMutation,
} = authApi;
