import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useEffect, useMemo } from 'react';
import { SplashScreen } from '../../components/splash-screen';
import { useOrgConfig } from '../../lib/http/org-config-api';
import { createAppTheme } from './create-app-theme';

/**
 * Loads the organisation's white-label config (spec §1) and themes the app with it. The splash
 * screen shows until it arrives; if it cannot be loaded the app goes on with Kisht's own theme.
 */
export const OrgThemeProvider = ({ children }: { children: ReactNode }) => {
  const { data: config, isLoading } = useOrgConfig();
  const theme = useMemo(() => createAppTheme(config?.theme), [config?.theme]);

  useEffect(() => {
    if (config?.orgName) document.title = config.orgName;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme.palette.primary.main);
  }, [config?.orgName, theme]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {isLoading ? <SplashScreen /> : children}
    </ThemeProvider>
  );
};
