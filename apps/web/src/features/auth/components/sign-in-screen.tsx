import { createContext, type ReactNode, useContext } from 'react';
import type { TSignInEnv } from '../sign-in-env';
import { SignInFrame, SignInNotice } from './sign-in-ui';

/** What the sign-in screens said went well (a reset MPIN), shown on the next screen. */
export const SignInNoticeContext = createContext<string | null>(null);

/** A sign-in screen in the organisation's frame, with the notice the previous screen left. */
export const SignInScreen = ({
  env,
  title,
  subtitle,
  children,
}: {
  env: TSignInEnv;
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
}) => {
  const notice = useContext(SignInNoticeContext);
  const { t, brand } = env;
  return (
    <SignInFrame
      brand={brand}
      appName={t('app.name')}
      companyLine={brand.companyName ? t('login.companyName', { company: brand.companyName }) : null}
      tagline={t('app.tagline')}
      title={title}
      subtitle={subtitle}
    >
      {notice ? (
        <SignInNotice severity="success" testId="sign-in-notice">
          {notice}
        </SignInNotice>
      ) : null}
      {children}
    </SignInFrame>
  );
};
