import type { TAuthSession } from '@kisht/domain/auth/auth.schema';
import { enqueueSnackbar } from 'notistack';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router';
import { SignInButton } from '../features/auth/components/sign-in-ui';
import { brandOf, type TSignInEnv } from '../features/auth/sign-in-env';
import { SignInScreens } from '../features/auth/sign-in-screens';
import { JoinRequestLink } from '../features/joining/components/join-request-link';
import { saveAuthSession } from '../lib/auth-storage';
import { ORG_ID } from '../lib/config';
import { errorWordsIn } from '../lib/error-codes';
import { purgeSessionCache, triggerSessionGone } from '../lib/http/api';
import { plainCall, type TPlainRequest } from '../lib/http/plain-call';
import { currentLanguage } from '../lib/i18n';
import type { TTranslate } from '../lib/plain-i18n';
import { selectAppConfig, selectOrgConfig } from '../lib/ui-slice';
import { JOIN_PARAM } from './join-param';

/**
 * The sign-in screens (login, otp, m_pin) inside the app, once it is loaded (after a logout, or a
 * session gone): the same screens as the light start (app/sign-in-start.tsx), given the app's
 * router, i18next, configs and toasts. The login screen offers the join request; `?join=1` opens it.
 */
export const SignInRoute = () => {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const orgConfig = useSelector(selectOrgConfig);
  const appConfig = useSelector(selectAppConfig);
  const language = currentLanguage(i18n);
  const isJoinAsked = new URLSearchParams(location.search).get(JOIN_PARAM) === '1';

  const env = useMemo<TSignInEnv>(() => {
    const translate = t as unknown as TTranslate;
    const orgId = orgConfig?.orgId ?? ORG_ID;
    return {
      t: translate,
      location: { pathname: location.pathname, search: location.search, state: location.state },
      navigate: (to, options = {}) => void navigate(to, options),
      call: <T,>(request: TPlainRequest) =>
        plainCall<T>(
          {
            baseUrl: orgConfig?.apiBaseUrl ?? '',
            orgId,
            requestTokenSecret: appConfig?.requestTokenSecret ?? null,
            words: errorWordsIn(translate, language),
            onSessionGone: triggerSessionGone,
          },
          request,
        ),
      brand: brandOf(orgConfig, ORG_ID, language),
      googleSignIn: appConfig?.googleSignIn === true,
      keepSession: (session: TAuthSession) => {
        dispatch(purgeSessionCache());
        saveAuthSession(session);
      },
      notify: (message) => void enqueueSnackbar(message, { variant: 'success' }),
      loginFooter: (
        <JoinRequestLink
          orgId={orgId}
          isOpenAtStart={isJoinAsked}
          renderOpener={(open, label) => (
            <SignInButton onClick={open} testId="join-open">
              {label}
            </SignInButton>
          )}
        />
      ),
    };
  }, [t, location, navigate, dispatch, orgConfig, appConfig, language, isJoinAsked]);

  return <SignInScreens env={env} />;
};
