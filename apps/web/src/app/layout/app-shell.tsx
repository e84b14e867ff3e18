import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
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
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { matchPath, Outlet, useLocation, useNavigate } from 'react-router';
import { PageSkeleton } from '../../components/page-skeleton';
import { useLogoutMutation } from '../../features/auth/auth-api';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { clearSession, getUserType, isCustomerUser, isOfficeUser } from '../../lib/auth-storage';
import { clearOfflineReads } from '../../lib/http/offline-reads';
import { savedReadsForgotten } from '../../lib/http/offline-reads-slice';
import { useOrgConfig } from '../../lib/http/org-config-api';
import { appPaths } from '../../lib/paths';
import type { TMainScreenTab, TStateWithUi } from '../../lib/ui-slice';
import { setDrawerOpen, setMainScreenTab } from '../../lib/ui-slice';
import { NavDrawer } from './nav-drawer';

/** The routes of each bottom tab; customer screens sit under Customers. */
const TAB_ROUTES: ReadonlyArray<readonly [TMainScreenTab, string]> = [
  ['dashboard', appPaths.dashboard.path],
  ['customers', appPaths.customerList.path],
  ['customers', appPaths.customerDetails.path],
  ['customers', appPaths.customerNavigate.path],
  ['customers', appPaths.emiDetails.path],
  ['customers', appPaths.viewEmiDetails.path],
  ['addCustomer', appPaths.addCustomer.path],
];

/** Which bottom tab a route belongs to, or null for routes outside the tabs (language, sessions…). */
export const tabOfPath = (pathname: string): TMainScreenTab | null =>
  TAB_ROUTES.find(([, path]) => matchPath({ path, end: true }, pathname))?.[0] ?? null;

const TAB_HREFS: Record<TMainScreenTab, () => string> = {
  dashboard: () => appPaths.dashboard.href(),
  customers: () => appPaths.customerList.href(),
  addCustomer: () => appPaths.addCustomer.href(),
};

/** Height of the bottom navigation, px; the page leaves this much room below its content. */
const BOTTOM_NAV_HEIGHT = 64;

const selectMainScreenTab = (state: TStateWithUi) => state.ui.mainScreenTab;

/**
 * The frame of every protected screen, mobile-first: an app bar (menu button, the organisation's
 * logo or initial and name, the notification bell for shops and customers, log out), the page,
 * bottom tabs driven by ui.mainScreenTab (dashboard, customers, add customer) and the navigation
 * drawer (ui.drawerOpen). The organisation's 'compact' main layout (spec §1) drops the bottom tabs
 * for the drawer alone, with a dense app bar and tighter spacing. A customer user (spec §4) gets no bottom tabs either (they are the retailer's
 * screens) and a drawer without the retailer items.
 */
export const AppShell = () => {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const config = useOrgConfig();
  const mainScreenTab = useSelector(selectMainScreenTab);
  const [logout] = useLogoutMutation();
  const [isLoggingOut, setIsLoggingOut] = useState(false);
  const orgName = config?.orgName || t('app.name');
  const logoUrl = config?.theme.logoUrl || null;
  const isCompact = config?.mainLayout === 'compact';
  const isCustomer = isCustomerUser();
  // The bottom tabs are shop screens: a customer, an organisation admin or a distributor has none.
  const hasBottomNav = !isCompact && !isCustomer && !isOfficeUser();
  const routeTab = tabOfPath(location.pathname);

  // The tabs follow the route, however it was reached (tab, drawer, link, Back).
  useEffect(() => {
    if (routeTab) dispatch(setMainScreenTab(routeTab));
  }, [routeTab, dispatch]);

  const handleLogout = async () => {
    setIsLoggingOut(true);
    // Revoke the session on the server if we can; sign out locally whatever the answer. The phone
    // and MPIN flag stay for the MPIN login. Cached data is dropped at the next sign-in
    // (purgeSessionCache), after these screens have gone; the reads saved for offline use go now,
    // so the next person on this phone never sees them (issue 28).
    await logout();
    clearSession();
    await clearOfflineReads();
    dispatch(savedReadsForgotten());
    dispatch(setDrawerOpen(false));
    navigate(appPaths.login.href(), { replace: true });
  };

  const handleTabChange = (tab: TMainScreenTab) => {
    dispatch(setMainScreenTab(tab));
    navigate(TAB_HREFS[tab]());
  };

  return (
    <Box
      sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}
      data-testid="app-shell"
      data-layout={isCompact ? 'compact' : 'default'}
    >
      <AppBar position="sticky" color="primary">
        <Toolbar>
          <IconButton
            color="inherit"
            edge="start"
            onClick={() => dispatch(setDrawerOpen(true))}
            aria-label={t('shell.openMenu')}
            data-testid="drawer-open"
            sx={{ mr: 1 }}
          >
            <MenuIcon />
          </IconButton>
          <Avatar
            src={logoUrl ?? undefined}
            alt={orgName}
            data-testid="app-bar-logo"
            sx={{
              width: isCompact ? 26 : 32,
              height: isCompact ? 26 : 32,
              mr: 1.5,
              bgcolor: 'secondary.main',
              fontSize: isCompact ? 13 : 16,
              fontWeight: 700,
            }}
          >
            {orgName.charAt(0)}
          </Avatar>
          <Typography
            variant={isCompact ? 'subtitle1' : 'h6'}
            component="p"
            noWrap
            sx={{ flex: 1, fontWeight: 700 }}
            data-testid="app-bar-org-name"
          >
            {orgName}
          </Typography>
          {getUserType() === 'admin' ? null : <NotificationBell />}
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
      <NavDrawer
        orgName={orgName}
        logoUrl={logoUrl}
        isLoggingOut={isLoggingOut}
        isCustomer={isCustomer}
        onLogout={handleLogout}
      />
      <Container
        component="main"
        maxWidth="sm"
        sx={
          isCompact
            ? { pt: 1, pb: 'calc(16px + env(safe-area-inset-bottom))', px: 1 }
            : {
                pt: 2,
                pb: `calc(${hasBottomNav ? BOTTOM_NAV_HEIGHT + 24 : 24}px + env(safe-area-inset-bottom))`,
              }
        }
      >
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </Container>
      {hasBottomNav ? (
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
            value={mainScreenTab}
            onChange={(_event, tab: TMainScreenTab) => handleTabChange(tab)}
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
      ) : null}
    </Box>
  );
};
