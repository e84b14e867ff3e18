import type {
  TAuthSession,
  TLoginWithOtpRequest,
  TLoginWithOtpResponse,
  TVerifyOtpRequest,
} from '@kisht/domain/auth/auth.schema';
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
    logout: build.mutation<null, void>({
      query: () => ({ url: paths.auth.logout, method: 'POST' }),
    }),
  }),
});

export const { useLoginWithOtpMutation, useVerifyOtpMutation, useLogoutMutation } = authApi;
