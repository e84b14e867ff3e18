import type { TCustomerStatusWord } from '@kisht/domain/common/enums';
import { CUSTOMER_STATUS_WORDS } from '@kisht/domain/common/enums';
import type { TBirthdayCustomer } from '@kisht/domain/messages/messages.schema';
import type { TDashboard } from '@kisht/domain/stats/stats.schema';
import type { SvgIconComponent } from '@mui/icons-material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import GroupsIcon from '@mui/icons-material/Groups';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import RemoveCircleIcon from '@mui/icons-material/RemoveCircle';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import Avatar from '@mui/material/Avatar';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { STATUS_COLORS } from '../../../components/customer-status-chip';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import type { TShopOption } from '../../../components/shop-picker';
import { ShopPicker } from '../../../components/shop-picker';
import { useOrgConfig } from '../../../lib/http/org-config-api';
import { appPaths, readRetailerIdParam } from '../../../lib/paths';
import { BirthdayBanner } from '../components/birthday-banner';
import { BirthdaysTodayCard } from '../components/birthdays-today-card';
import { MoneySection } from '../components/money-section';
import { StatusChart } from '../components/status-chart';
import { useGetDashboardQuery } from '../dashboard-api';

const STATUS_ICONS: Record<TCustomerStatusWord, SvgIconComponent> = {
  inactive: HourglassEmptyIcon,
  install: CheckCircleIcon,
  deactive: PauseCircleIcon,
  uninstall: RemoveCircleIcon,
  apple_removed: PhonelinkEraseIcon,
  emi_completed: TaskAltIcon,
  emi_maturing: EventRepeatIcon,
};

const numberFormat = new Intl.NumberFormat('en-IN');

type TStatusCountsProps = {
  countsByStatus: TDashboard['countsByStatus'];
  onOpen: (word: TCustomerStatusWord) => void;
};

const iconColor = (code: number) => {
  const color = STATUS_COLORS[code as keyof typeof STATUS_COLORS];
  return color === 'default' ? 'action' : color;
};

/** The counts by status as cards, two or three a row (the organisation's 'cards' dashboard). */
const StatusCards = ({ countsByStatus, onOpen }: TStatusCountsProps) => {
  const { t } = useTranslation();
  return (
    <Grid container spacing={1.5} data-testid="dashboard-cards">
      {CUSTOMER_STATUS_WORDS.map((word, code) => {
        const Icon = STATUS_ICONS[word];
        return (
          <Grid key={word} size={{ xs: 6, sm: 4 }}>
            <Card sx={{ height: '100%' }} data-testid={`dashboard-status-${word}`}>
              <CardActionArea sx={{ height: '100%' }} onClick={() => onOpen(word)}>
                <CardContent>
                  <Icon color={iconColor(code)} sx={{ mb: 1 }} />
                  <Typography variant="h5" component="p">
                    {numberFormat.format(countsByStatus[word] ?? 0)}
                  </Typography>
                  <Typography variant="body2" color="textSecondary">
                    {t(`customerStatus.${word}`)}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        );
      })}
    </Grid>
  );
};

/** The counts by status as one list, a row each (the organisation's 'list' dashboard). */
const StatusList = ({ countsByStatus, onOpen }: TStatusCountsProps) => {
  const { t } = useTranslation();
  return (
    <Card>
      <List disablePadding aria-label={t('dashboard.listLabel')} data-testid="dashboard-list">
        {CUSTOMER_STATUS_WORDS.map((word, code) => {
          const Icon = STATUS_ICONS[word];
          return (
            <ListItemButton
              key={word}
              divider
              onClick={() => onOpen(word)}
              data-testid={`dashboard-status-${word}`}
            >
              <ListItemIcon sx={{ minWidth: 40 }}>
                <Icon color={iconColor(code)} />
              </ListItemIcon>
              <ListItemText primary={t(`customerStatus.${word}`)} />
              <Typography variant="subtitle1" component="span" sx={{ fontWeight: 700 }}>
                {numberFormat.format(countsByStatus[word] ?? 0)}
              </Typography>
            </ListItemButton>
          );
        })}
      </List>
    </Card>
  );
};

type TDashboardPageProps = {
  /**
   * The EMIs-due figures, composed in by the app (they belong to the emi feature, which this
   * feature does not import).
   */
  upcomingSection?: ReactNode;
  /** The shop's keys per app_type (the ledger feature's card), composed in by the app. */
  keysSection?: ReactNode;
  /**
   * The shops a retailer can narrow the customer counts to (spec §3 `retailer_id`, kept in the
   * URL), composed in by the app; undefined hides the "Shop" picker.
   */
  shopOptions?: TShopOption[] | undefined;
  /**
   * "Send wishes" to a customer born today (a message to their phone: the devices feature's
   * dialog), composed in by the app.
   */
  renderSendWishes?: ((customer: TBirthdayCustomer) => ReactNode) | undefined;
};

/**
 * Spec §2 dashboard: customers in total, the money figures (outstanding, overdue, collected), the
 * EMIs due, and customers by status, as counts and as a bar chart; a status opens the list
 * filtered to it. The organisation's config picks how the figures show (spec §1 pages per
 * organisation): cards, or a list. A retailer with mini-retailers picks a shop: the customer
 * counts (total and by status) and the lists they open are that shop's; the money, EMIs-due and
 * keys sections stay the whole network's (their server routes take no shop). On the user's
 * birthday a celebration banner shows, and the customers born today are listed with "Send wishes"
 * (issue 16).
 */
export const DashboardPage = ({
  upcomingSection,
  keysSection,
  shopOptions,
  renderSendWishes,
}: TDashboardPageProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const retailerId = readRetailerIdParam(searchParams);
  const orgConfig = useOrgConfig();
  const { data, isLoading, isError, error, refetch } = useGetDashboardQuery(retailerId, {
    refetchOnMountOrArgChange: true,
  });
  const openStatus = (word: TCustomerStatusWord) =>
    navigate(appPaths.customerList.href({ status: word, retailerId }));
  const layout = orgConfig?.pages.dashboard === 'list' ? 'list' : 'cards';

  if (isLoading) return <PageSkeleton />;
  if (isError || !data) return <LoadError message={error?.message} onRetry={refetch} />;

  return (
    <>
      <PageHeader title={t('dashboard.title')} />
      <BirthdayBanner />
      {shopOptions ? (
        <Stack sx={{ mb: 2 }}>
          <ShopPicker
            options={shopOptions}
            value={retailerId}
            onChange={(shopId) => navigate(appPaths.dashboard.href(shopId), { replace: true })}
          />
        </Stack>
      ) : null}
      <Card
        variant="elevation"
        elevation={0}
        sx={{ mb: 3, bgcolor: 'primary.main', color: 'primary.contrastText' }}
        data-testid="dashboard-total"
      >
        <CardActionArea onClick={() => navigate(appPaths.customerList.href({ retailerId }))}>
          <CardContent sx={{ p: 3 }}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Avatar sx={{ bgcolor: 'primary.dark', width: 56, height: 56 }}>
                <GroupsIcon />
              </Avatar>
              <Stack>
                <Typography variant="h3" component="p" sx={{ fontWeight: 700, lineHeight: 1.1 }}>
                  {numberFormat.format(data.total)}
                </Typography>
                <Typography variant="body1">{t('dashboard.total')}</Typography>
              </Stack>
            </Stack>
          </CardContent>
        </CardActionArea>
      </Card>
      <Stack spacing={3}>
        <BirthdaysTodayCard renderSendWishes={renderSendWishes} />
        <MoneySection layout={layout} />
        {upcomingSection}
        {keysSection}
        <section aria-label={t('dashboard.byStatus')}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
            {t('dashboard.byStatus')}
          </Typography>
          {layout === 'list' ? (
            <StatusList countsByStatus={data.countsByStatus} onOpen={openStatus} />
          ) : (
            <StatusCards countsByStatus={data.countsByStatus} onOpen={openStatus} />
          )}
        </section>
        <StatusChart countsByStatus={data.countsByStatus} total={data.total} onOpen={openStatus} />
      </Stack>
    </>
  );
};
