import { type ComponentType, useEffect, useMemo, useState } from 'react';
import { appPaths } from '../../lib/paths';
import { SignInNoticeContext } from './components/sign-in-screen';
import { LoginPage } from './pages/login-page';
import { MpinPage } from './pages/mpin-page';
import { OtpPage } from './pages/otp-page';
import type { TSignInEnv } from './sign-in-env';

/** How long a notice (a reset MPIN) stays on the sign-in screens, ms. */
export const SIGN_IN_NOTICE_MS = 6000;

/** The sign-in screens by path (spec §2 login, otp, m_pin). */
const SCREENS: Readonly<Record<string, ComponentType<{ env: TSignInEnv }>>> = {
  [appPaths.login.path]: LoginPage,
  [appPaths.otp.path]: OtpPage,
  [appPaths.mPin.path]: MpinPage,
};

/** Whether a path is one of the sign-in screens (login, otp, m_pin). */
export const isSignInPath = (pathname: string): boolean => Object.hasOwn(SCREENS, pathname);

/**
 * The sign-in screen of `env.location` (issue 28: no MUI, router, store or i18next; whatever runs it
 * gives them `env`). Without `env.notify`, what a screen says went well shows on the next screen
 * for SIGN_IN_NOTICE_MS.
 */
export const SignInScreens = ({ env }: { env: TSignInEnv }) => {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(() => setNotice(null), SIGN_IN_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);
  const screenEnv = useMemo(() => (env.notify ? env : { ...env, notify: setNotice }), [env]);
  const Screen = SCREENS[env.location.pathname] ?? LoginPage;
  return (
    <SignInNoticeContext.Provider value={notice}>
      <Screen env={screenEnv} />
    </SignInNoticeContext.Provider>
  );
};
