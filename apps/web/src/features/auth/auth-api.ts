import type { authContract } from '@kisht/domain/contract/auth';
import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { oauthContract } from '@kisht/domain/contract/oauth';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TLoginWithOtp = (typeof authContract)['loginWithOtp'];
type TVerifyOtp = (typeof authContract)['verifyOtp'];
type TResendOtp = (typeof authContract)['resendOtp'];
type TLoginWithMpin = (typeof authContract)['loginWithMpin'];
type TForgotMpin = (typeof authContract)['forgotMpin'];
type TResetMpin = (typeof authContract)['resetMpin'];
type TSetMpin = (typeof authContract)['setMpin'];
type TLogout = (typeof authContract)['logout'];
type TOauthUrl = (typeof oauthContract)['url'];
type TOauthComplete = (typeof oauthContract)['complete'];

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginWithOtp: build.mutation<TContractData<TLoginWithOtp>, TContractBody<TLoginWithOtp>>({
      query: (body) =>
        contractRequest<TLoginWithOtp>({ path: paths.auth.loginWithOtp, method: 'POST' }, { body }),
    }),
    verifyOtp: build.mutation<TContractData<TVerifyOtp>, TContractBody<TVerifyOtp>>({
      query: (body) => contractRequest<TVerifyOtp>({ path: paths.auth.verifyOtp, method: 'POST' }, { body }),
    }),
    /** Another OTP of the same purpose; the server answers 429 inside the cool-down. */
    resendOtp: build.mutation<TContractData<TResendOtp>, TContractBody<TResendOtp>>({
      query: (body) => contractRequest<TResendOtp>({ path: paths.auth.resendOtp, method: 'POST' }, { body }),
    }),
    loginWithMpin: build.mutation<TContractData<TLoginWithMpin>, TContractBody<TLoginWithMpin>>({
      query: (body) =>
        contractRequest<TLoginWithMpin>({ path: paths.auth.loginWithMpin, method: 'POST' }, { body }),
    }),
    /** Sends an OTP with purpose FORGOT_PASSWORD. */
    forgotMpin: build.mutation<TContractData<TForgotMpin>, TContractBody<TForgotMpin>>({
      query: (body) =>
        contractRequest<TForgotMpin>({ path: paths.auth.forgotMpin, method: 'POST' }, { body }),
    }),
    resetMpin: build.mutation<TContractData<TResetMpin>, TContractBody<TResetMpin>>({
      query: (body) => contractRequest<TResetMpin>({ path: paths.auth.resetMpin, method: 'POST' }, { body }),
    }),
    /** Sets the signed-in user's MPIN. */
    setMpin: build.mutation<TContractData<TSetMpin>, TContractBody<TSetMpin>>({
      query: (body) => contractRequest<TSetMpin>({ path: paths.auth.setMpin, method: 'POST' }, { body }),
    }),
    /** Sign in with Google: the provider's authorization URL for the organisation (404 when not set up). */
    getOauthUrl: build.mutation<TContractData<TOauthUrl>, number>({
      query: (orgId) =>
        contractRequest<TOauthUrl>({ path: paths.oauth.url, method: 'GET' }, { params: { org_id: orgId } }),
    }),
    /** Exchanges the one-time ticket the Google callback put in the login page's URL for a session. */
    completeOauth: build.mutation<TContractData<TOauthComplete>, TContractBody<TOauthComplete>>({
      query: (body) =>
        contractRequest<TOauthComplete>({ path: paths.oauth.complete, method: 'POST' }, { body }),
    }),
    logout: build.mutation<TContractData<TLogout>, TContractBody<TLogout>>({
      query: () => contractRequest<TLogout>({ path: paths.auth.logout, method: 'POST' }),
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
