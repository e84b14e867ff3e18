import type { TUserType } from '@kisht/domain/common/enums';
import type { TUserAccess } from '@kisht/domain/devices/devices.schema';
import type { SvgIconComponent } from '@mui/icons-material';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import CampaignIcon from '@mui/icons-material/Campaign';
import DevicesIcon from '@mui/icons-material/Devices';
import EventIcon from '@mui/icons-material/Event';
import FamilyRestroomIcon from '@mui/icons-material/FamilyRestroom';
import GppGoodIcon from '@mui/icons-material/GppGood';
import HelpIcon from '@mui/icons-material/Help';
import HistoryIcon from '@mui/icons-material/History';
import InsightsIcon from '@mui/icons-material/Insights';
import LockResetIcon from '@mui/icons-material/LockReset';
import LogoutIcon from '@mui/icons-material/Logout';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import PeopleIcon from '@mui/icons-material/People';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PolicyIcon from '@mui/icons-material/Policy';
import ShieldIcon from '@mui/icons-material/Shield';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import SimCardIcon from '@mui/icons-material/SimCard';
import SpaceDashboardIcon from '@mui/icons-material/SpaceDashboard';
import StorefrontIcon from '@mui/icons-material/Storefront';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import TranslateIcon from '@mui/icons-material/Translate';
import TuneIcon from '@mui/icons-material/Tune';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { useLocation, useNavigate } from 'react-router';
import { getUserType } from '../../lib/auth-storage';
import { useUserAccess } from '../../lib/http/access-api';
import type { TLinkableRouteKey } from '../../lib/paths';
import { appPaths, mayOpen } from '../../lib/paths';
import type { TStateWithUi } from '../../lib/ui-slice';
import { selectOrgConfig, setDrawerOpen } from '../../lib/ui-slice';

/**
 * Who is looking at the drawer: their user type (spec §4), user access flags (spec §6) and whether
 * their organisation has the payment gateway on (spec §1 flag; absent: off).
 */
export type TDrawerViewer = {
  userType: TUserType | null;
  userAccess: TUserAccess;
  isPaymentGatewayOn?: boolean;
};

type TDrawerItem = {
  route: TLinkableRouteKey;
  labelKey: ParseKeys;
  icon: SvgIconComponent;
  /** The drawer's section it is listed under (issue 28: 22 entries in one list were hard to scan). */
  group: TDrawerGroup;
  /**
   * Beyond the user types that may open its route (lib/paths mayOpen), whether the item is listed
   * for this viewer (its type, access flags, organisation features); listed when absent.
   */
  isShownTo?: (viewer: TDrawerViewer) => boolean;
};

/** The drawer's sections, in order; `main` has no heading. */
export const DRAWER_GROUPS = ['main', 'phones', 'plans', 'shop', 'account'] as const;
export type TDrawerGroup = (typeof DRAWER_GROUPS)[number];

/** What the navigation drawer lists, in order, section by section (log out comes last, after a divider). */
export const DRAWER_ITEMS: readonly TDrawerItem[] = [
  {
    route: 'admin',
    group: 'main',
    labelKey: 'nav.admin',
    icon: AdminPanelSettingsIcon,
  },
  // Issue 30: a distributor's home, the nodes below it.
  { route: 'network', group: 'main', labelKey: 'nav.network', icon: AccountTreeIcon },
  { route: 'dashboard', group: 'main', labelKey: 'nav.dashboard', icon: SpaceDashboardIcon },
  { route: 'customerList', group: 'main', labelKey: 'nav.customers', icon: PeopleIcon },
  { route: 'addCustomer', group: 'main', labelKey: 'nav.addCustomer', icon: PersonAddIcon },
  { route: 'upComingEmi', group: 'main', labelKey: 'nav.upcomingEmi', icon: EventIcon },
  // Issue 29: who is late by how much; shops and the organisation admin.
  { route: 'collections', group: 'main', labelKey: 'nav.collections', icon: InsightsIcon },
  {
    route: 'multipleLockUnlock',
    group: 'phones',
    labelKey: 'nav.multipleLockUnlock',
    icon: LockResetIcon,
    // Bulk lock needs the bulk_retailer flag (spec §6 default '0'), so it stays hidden until the
    // server says '1'.
    isShownTo: ({ userAccess }) => userAccess.bulk_retailer === '1',
  },
  {
    route: 'sendAdvertisement',
    group: 'phones',
    labelKey: 'pages.send_advertisement',
    icon: CampaignIcon,
    // Sending an ad to phones needs feature access (spec §6).
    isShownTo: ({ userAccess }) => userAccess.feature_access === '1',
  },
  { route: 'pendingCommands', group: 'phones', labelKey: 'nav.pendingCommands', icon: PendingActionsIcon },
  { route: 'simChanges', group: 'phones', labelKey: 'nav.simChanges', icon: SimCardIcon },
  {
    route: 'retailerList',
    group: 'shop',
    labelKey: 'nav.retailers',
    icon: StorefrontIcon,
    // Only a retailer has mini-retailers (the page refuses anyone else too).
    isShownTo: ({ userType }) => userType === 'retailer',
  },
  { route: 'topUpHistory', group: 'shop', labelKey: 'nav.topUpHistory', icon: HistoryIcon },
  // Issue 30: keys asked of the parent (and, for a retailer, its mini-retailers' requests).
  { route: 'keyRequests', group: 'shop', labelKey: 'nav.keyRequests', icon: VpnKeyIcon },
  // Protection plans (issue 14): sold by retailers and mini-retailers alike.
  { route: 'antihacking', group: 'plans', labelKey: 'pages.antihacking', icon: GppGoodIcon },
  { route: 'familycare', group: 'plans', labelKey: 'pages.familycare', icon: FamilyRestroomIcon },
  { route: 'extendedWarranty', group: 'plans', labelKey: 'pages.extended_warranty', icon: VerifiedUserIcon },
  { route: 'antiTheft', group: 'plans', labelKey: 'pages.anti_theft', icon: ShieldIcon },
  {
    route: 'paymentGateway',
    group: 'shop',
    labelKey: 'nav.paymentGateway',
    icon: ShoppingCartIcon,
    // Buying keys online is an organisation feature, off by default (spec §1).
    isShownTo: ({ isPaymentGatewayOn }) => isPaymentGatewayOn === true,
  },
  {
    route: 'deviceSettings',
    group: 'phones',
    labelKey: 'nav.deviceSettings',
    icon: TuneIcon,
    // The organisation's settings are the retailer's to change, not a mini-retailer's.
    isShownTo: ({ userType }) => userType === 'retailer',
  },
  { route: 'language', group: 'account', labelKey: 'nav.language', icon: TranslateIcon },
  { route: 'sessions', group: 'account', labelKey: 'nav.sessions', icon: DevicesIcon },
  { route: 'help', group: 'account', labelKey: 'nav.help', icon: HelpIcon },
  { route: 'support', group: 'account', labelKey: 'nav.support', icon: SupportAgentIcon },
  { route: 'privacyPolicy', group: 'account', labelKey: 'nav.privacyPolicy', icon: PolicyIcon },
];

/**
 * The drawer items of a viewer, section by section (DRAWER_GROUPS): the routes its user type may open
 * (lib/paths mayOpen: a customer user, spec §4, CUSTOMER_ROUTES; an organisation admin ADMIN_ROUTES;
 * a distributor DISTRIBUTOR_ROUTES; a retailer or mini-retailer the rest) that its type and access
 * flags allow.
 */
export const drawerItemsFor = (viewer: TDrawerViewer): readonly TDrawerItem[] =>
  DRAWER_ITEMS.filter(
    (item) => mayOpen(item.route, viewer.userType) && (item.isShownTo?.(viewer) ?? true),
  ).sort((a, b) => DRAWER_GROUPS.indexOf(a.group) - DRAWER_GROUPS.indexOf(b.group));

/** The viewer's drawer items in sections (DRAWER_GROUPS order), each section with its items in order. */
const sectionsOf = (items: readonly TDrawerItem[]) =>
  DRAWER_GROUPS.map((group) => ({ group, items: items.filter((item) => item.group === group) })).filter(
    (section) => section.items.length > 0,
  );

const selectIsDrawerOpen = (state: TStateWithUi) => state.ui.drawerOpen;

type TNavDrawerProps = {
  orgName: string;
  logoUrl: string | null;
  isLoggingOut: boolean;
  /** A customer user: the retailer items are left out. */
  isCustomer: boolean;
  onLogout: () => void;
};

/** The navigation drawer (spec §3 drawerOpen), opened from the app bar's menu button. */
export const NavDrawer = ({ orgName, logoUrl, isLoggingOut, isCustomer, onLogout }: TNavDrawerProps) => {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isOpen = useSelector(selectIsDrawerOpen);
  const userAccess = useUserAccess({ skip: isCustomer });
  const isPaymentGatewayOn = useSelector(selectOrgConfig)?.features.paymentGateway === true;
  const viewer: TDrawerViewer = {
    userType: isCustomer ? 'customer' : getUserType(),
    userAccess: userAccess.flags,
    isPaymentGatewayOn,
  };
  const close = () => dispatch(setDrawerOpen(false));

  const open = (route: TLinkableRouteKey) => {
    close();
    navigate(appPaths[route].href());
  };

  return (
    <Drawer
      anchor="left"
      open={isOpen}
      onClose={close}
      slotProps={{
        paper: { 'data-testid': 'nav-drawer', sx: { width: 288, maxWidth: '85vw' } } as object,
      }}
    >
      <Box
        component="nav"
        aria-label={t('shell.menu')}
        sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
      >
        <Stack
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'center', px: 2, py: 2.5, bgcolor: 'primary.main' }}
        >
          <Avatar
            src={logoUrl ?? undefined}
            alt={orgName}
            sx={{ bgcolor: 'secondary.main', fontWeight: 700 }}
          >
            {orgName.charAt(0)}
          </Avatar>
          <Typography variant="h6" component="p" noWrap sx={{ color: 'primary.contrastText' }}>
            {orgName}
          </Typography>
        </Stack>
        <Box sx={{ overflowY: 'auto', flex: 1 }}>
          {sectionsOf(drawerItemsFor(viewer)).map(({ group, items }) => (
            <List
              key={group}
              dense
              aria-labelledby={group === 'main' ? undefined : `drawer-section-${group}`}
              data-testid={`drawer-section-${group}`}
              subheader={
                group === 'main' ? undefined : (
                  <ListSubheader id={`drawer-section-${group}`} disableSticky sx={{ lineHeight: '36px' }}>
                    {t(`nav.groups.${group}`)}
                  </ListSubheader>
                )
              }
            >
              {items.map(({ route, labelKey, icon: Icon }) => (
                <ListItemButton
                  key={route}
                  selected={pathname === appPaths[route].path}
                  onClick={() => open(route)}
                  data-testid={`drawer-item-${route}`}
                >
                  <ListItemIcon>
                    <Icon />
                  </ListItemIcon>
                  <ListItemText primary={t(labelKey)} />
                </ListItemButton>
              ))}
            </List>
          ))}
          <Divider />
          <List>
            <ListItemButton onClick={onLogout} disabled={isLoggingOut} data-testid="drawer-logout">
              <ListItemIcon>
                <LogoutIcon />
              </ListItemIcon>
              <ListItemText primary={t('shell.logout')} />
            </ListItemButton>
          </List>
        </Box>
      </Box>
    </Drawer>
  );
};
