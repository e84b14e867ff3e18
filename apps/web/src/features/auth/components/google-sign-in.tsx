import { OAUTH_RESULT_PARAMS } from '@kisht/domain/auth/oauth-params';
import type { TContractBody, TContractData, TContractQuery } from '@kisht/domain/contract/define';
import type { oauthContract } from '@kisht/domain/contract/oauth';
import { paths } from '@kisht/domain/paths';
import { useEffect, useRef, useState } from 'react';
import { appPaths } from '../../../lib/paths';
import type { TSignInEnv } from '../sign-in-env';
import { SignInButton, SignInNotice } from './sign-in-ui';

type TOauthUrl = (typeof oauthContract)['url'];
type TOauthComplete = (typeof oauthContract)['complete'];

/** Leaves the browser for the provider (a seam for tests). */
export const goToProvider = { assign: (url: string) => window.location.assign(url) };

/** Google's "G", drawn in the button's colour. */
const GoogleMark = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M21.35 11.1H12v2.98h5.35c-.5 2.4-2.55 3.92-5.35 3.92a6 6 0 1 1 0-12c1.5 0 2.86.55 3.9 1.45l2.2-2.2A9.1 9.1 0 0 0 12 2.9a9.1 9.1 0 1 0 0 18.2c5.25 0 8.75-3.69 8.75-8.9 0-.37-.05-.74-.1-1.1Z" />
  </svg>
);

/**
 * Sign in with Google on the login page: the button (only when the server's app config says
 * googleSignIn), and the way back: the callback puts `oauth_ticket` (exchanged once for the
 * session) or `oauth_error` in the login page's URL.
 */
export const GoogleSignIn = ({ env }: { env: TSignInEnv }) => {
  const { t } = env;
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const params = new URLSearchParams(env.location.search);
  const ticket = params.get(OAUTH_RESULT_PARAMS.ticket);
  const returnedError = params.get(OAUTH_RESULT_PARAMS.error);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const key = ticket ?? returnedError;
    if (!key || handled.current === key) return;
    handled.current = key;
    // The ticket works once: take it out of the address bar (and history) straight away.
    env.navigate(appPaths.login.href(), { replace: true });
    // Without a ticket the key was the error the callback returned.
    if (returnedError || ticket === null) {
      setError(returnedError === 'OAUTH_NOT_LINKED' ? t('login.googleNotLinked') : t('login.googleFailed'));
      return;
    }
    setIsBusy(true);
    const body: TContractBody<TOauthComplete> = { ticket };
    void env
      .call<TContractData<TOauthComplete>>({ url: paths.oauth.complete, method: 'POST', body })
      .then((result) => {
        setIsBusy(false);
        if (!result.data) {
          setError(result.error.message);
          return;
        }
        env.keepSession(result.data);
        env.navigate(appPaths.dashboard.href(), { replace: true });
      });
  }, [ticket, returnedError, env, t]);

  const start = async () => {
    setError(null);
    setIsBusy(true);
    const query = { org_id: env.brand.orgId } satisfies TContractQuery<TOauthUrl>;
    const result = await env.call<TContractData<TOauthUrl>>({ url: paths.oauth.url, params: query });
    setIsBusy(false);
    if (result.data) goToProvider.assign(result.data.url);
    else setError(result.error.message);
  };

  return (
    <>
      {error && (
        <SignInNotice severity="error" testId="google-error">
          {error}
        </SignInNotice>
      )}
      {env.googleSignIn && (
        <SignInButton
          variant="outlined"
          icon={<GoogleMark />}
          isLoading={isBusy}
          onClick={() => void start()}
          testId="login-with-google"
        >
          {t('login.withGoogle')}
        </SignInButton>
      )}
    </>
  );
};
