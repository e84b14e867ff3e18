import LogoutIcon from '@mui/icons-material/Logout';
import PeopleIcon from '@mui/icons-material/People';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SpaceDashboardIcon from '@mui/icons-material/SpaceDashboard';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageSkeleton } from '../../components/page-skeleton';
import { useLogoutMutation } from '../../features/auth/auth-api';
import { clearAllStorage } from '../../lib/auth-storage';
import { useOrgConfig } from '../../lib/http/org-config-api';
import { appPaths } from '../paths';

type TTab = 'dashboard' | 'customers' | 'addCustomer';

/** Which bottom tab a route belongs to; customer screens sit under Customers. */
const tabOf = (pathname: string): TTab => {
  if (pathname.startsWith(appPaths.addCustomer.path)) return 'addCustomer';
  if (pathname.startsWith(appPaths.dashboard.path)) return 'dashboard';
  return 'customers';
};

const TAB_HREFS: Record<TTab, () => string> = {
  dashboard: () => appPaths.dashboard.href(),
  customers: () => appPaths.customerList.href(),
  addCustomer: () => appPaths.addCustomer.href(),
};

/** Height of the bottom navigation, px; the page leaves this much room below its content. */
const BOTTOM_NAV_HEIGHT = 64;

/**
 * The frame of every protected screen: an app bar with the organisation's name and log out, the
 * page, and bottom tabs (dashboard, customers, add customer), mobile-first.
 */
export const AppShell = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { data: config } = useOrgConfig();
  const [logout] = useLogoutMutation();
  const [isLoggingOut, setIsLoggingOut] = useState(false);
  const orgName = config?.orgName || t('app.name');

  const handleLogout = async () => {
    setIsLoggingOut(true);
    // Revoke the session on the server if we can; sign out locally whatever the answer. Cached
    // data is dropped at the next sign-in (purgeSessionCache), after these screens have gone.
    await logout();
    clearAllStorage();
    navigate(appPaths.login.href(), { replace: true });
  };

  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="primary">
        <Toolbar>
          <Avatar
            src={config?.theme.logoUrl ?? undefined}
            alt={orgName}
            sx={{ width: 32, height: 32, mr: 1.5, bgcolor: 'secondary.main', fontSize: 16, fontWeight: 700 }}
          >
            {orgName.charAt(0)}
          </Avatar>
          <Typography variant="h6" component="p" noWrap sx={{ flex: 1 }} data-testid="app-bar-org-name">
            {orgName}
          </Typography>
          <Tooltip title={t('shell.logout')}>
            <IconButton
              color="inherit"
              edge="end"
              onClick={handleLogout}
              disabled={isLoggingOut}
              aria-label={t('shell.logout')}
              data-testid="logout-button"
            >
              <LogoutIcon />
            </IconButton>
          </Tooltip>
        </Toolbar>
      </AppBar>
      <Container
        component="main"
        maxWidth="sm"
        sx={{ pt: 2, pb: `calc(${BOTTOM_NAV_HEIGHT + 24}px + env(safe-area-inset-bottom))` }}
      >
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </Container>
      <Paper
        component="nav"
        aria-label={t('shell.navigation')}
        elevation={8}
        sx={{
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: 0,
          zIndex: (theme) => theme.zIndex.appBar,
          pb: 'env(safe-area-inset-bottom)',
        }}
      >
        <BottomNavigation
          showLabels
          value={tabOf(location.pathname)}
          onChange={(_event, tab: TTab) => navigate(TAB_HREFS[tab]())}
          sx={{ height: BOTTOM_NAV_HEIGHT, maxWidth: 600, mx: 'auto' }}
        >
          <BottomNavigationAction
            value="dashboard"
            label={t('nav.dashboard')}
            icon={<SpaceDashboardIcon />}
            data-testid="nav-dashboard"
          />
          <BottomNavigationAction
            value="customers"
            label={t('nav.customers')}
            icon={<PeopleIcon />}
            data-testid="nav-customers"
          />
          <BottomNavigationAction
            value="addCustomer"
            label={t('nav.addCustomer')}
            icon={<PersonAddIcon />}
            data-testid="nav-add-customer"
          />
        </BottomNavigation>
      </Paper>
    </Box>
  );
};
