import { OAUTH_RESULT_PARAMS } from '@kisht/domain/auth/oauth-params';
import GoogleIcon from '@mui/icons-material/Google';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router';
import { saveAuthSession } from '../../../lib/auth-storage';
import { purgeSessionCache } from '../../../lib/http/api';
import { isApiError } from '../../../lib/http/base-query';
import { appPaths } from '../../../lib/paths';
import { selectAppConfig } from '../../../lib/ui-slice';
import { useCompleteOauthMutation, useGetOauthUrlMutation } from '../auth-api';

/** Leaves the browser for the provider (a seam for tests). */
export const goToProvider = { assign: (url: string) => window.location.assign(url) };

/**
 * Sign in with Google on the login page: the button (only when the server's app config says
 * googleSignIn), and the way back: the callback puts `oauth_ticket` (exchanged once for the session)
 * or `oauth_error` in the login page's URL.
 */
export const GoogleSignIn = ({ orgId }: { orgId: number }) => {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const isEnabled = useSelector(selectAppConfig)?.googleSignIn === true;
  const [getOauthUrl, { isLoading: isStarting }] = useGetOauthUrlMutation();
  const [completeOauth, { isLoading: isCompleting }] = useCompleteOauthMutation();
  const [error, setError] = useState<string | null>(null);
  const ticket = searchParams.get(OAUTH_RESULT_PARAMS.ticket);
  const returnedError = searchParams.get(OAUTH_RESULT_PARAMS.error);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const key = ticket ?? returnedError;
    if (!key || handled.current === key) return;
    handled.current = key;
    // The ticket works once: take it out of the address bar (and history) straight away.
    setSearchParams({}, { replace: true });
    if (returnedError) {
      setError(returnedError === 'OAUTH_NOT_LINKED' ? t('login.googleNotLinked') : t('login.googleFailed'));
      return;
    }
    void completeOauth({ ticket: ticket! }).then((result) => {
      if (!result.data) {
        setError(isApiError(result.error) ? result.error.message : t('login.googleFailed'));
        return;
      }
      dispatch(purgeSessionCache());
      saveAuthSession(result.data);
      navigate(appPaths.dashboard.href(), { replace: true });
    });
  }, [ticket, returnedError, completeOauth, dispatch, navigate, setSearchParams, t]);

  const start = async () => {
    setError(null);
    const result = await getOauthUrl(orgId);
    if (result.data) goToProvider.assign(result.data.url);
    else setError(isApiError(result.error) ? result.error.message : t('login.googleFailed'));
  };

  return (
    <>
      {error && (
        <Alert severity="error" data-testid="google-error">
          {error}
        </Alert>
      )}
      {isEnabled && (
        <Button
          variant="outlined"
          startIcon={<GoogleIcon />}
          loading={isStarting || isCompleting}
          onClick={() => void start()}
          data-testid="login-with-google"
        >
          {t('login.withGoogle')}
        </Button>
      )}
    </>
  );
};
