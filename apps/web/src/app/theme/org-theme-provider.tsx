import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrgConfig } from '../../lib/http/org-config-api';
import { currentLanguage } from '../../lib/i18n';
import { createAppTheme } from './create-app-theme';

/**
 * Themes the app with the organisation's white-label config (spec §1) from the store: colours,
 * and a denser theme for the 'compact' main layout. Until the config has loaded (or when it could
 * not be), Kisht's own theme applies. The font stack follows the language shown (fontStackFor).
 */
export const OrgThemeProvider = ({ children }: { children: ReactNode }) => {
  const config = useOrgConfig();
  const isCompact = config?.mainLayout === 'compact';
  const { i18n } = useTranslation();
  const language = currentLanguage(i18n);
  const theme = useMemo(
    () => createAppTheme(config?.theme, { isCompact, language }),
    [config?.theme, isCompact, language],
  );

  useEffect(() => {
    if (config?.orgName) document.title = config.orgName;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme.palette.primary.main);
  }, [config?.orgName, theme]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
};
