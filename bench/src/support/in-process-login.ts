import { paths } from '@kisht/domain/paths';
import type { KishtApp } from '@kisht/server/app';

/**
 * Logs a user in against a server built in this process (development OTP from the answer), for the
 * in-process benchmarks; answers the verify call's data (`token`, `user`).
 */
export const loginInProcess = async (
  app: KishtApp,
  orgId: number,
  mobile: string,
): Promise<{ token: string; user: Record<string, unknown> }> => {
  const sent = await app.inject({ method: 'POST', url: paths.auth.loginWithOtp, payload: { orgId, mobile } });
  const otp = sent.json().data.devOtp;
  const verified = await app.inject({
    method: 'POST',
    url: paths.auth.verifyOtp,
    payload: { orgId, mobile, otp },
  });
  return verified.json().data;
};
