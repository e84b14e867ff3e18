import type { TUpcomingEmiItem } from '@kisht/domain/emi/emi.schema';
import { UPCOMING_RANGES } from '@kisht/domain/emi/emi.schema';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SavedReadNotice } from '../../../components/saved-read-notice';
import { formatDate, formatMobile, formatRupees } from '../../../lib/format';
import { useSavedReadTime } from '../../../lib/http/offline-reads-slice';
import type { TUpcomingRange } from '../../../lib/paths';
import { appPaths, UPCOMING_RANGE_PARAM } from '../../../lib/paths';
import { InstalmentStatusChip } from '../components/instalment-status-chip';
import { SendReminderButton } from '../components/send-reminder-button';
import { useGetUpcomingEmiCountsQuery, useGetUpcomingEmiInfiniteQuery } from '../emi-api';

/** The tab shown when the URL names none: what is due today. */
export const DEFAULT_UPCOMING_RANGE: TUpcomingRange = 'today';

/** The tab of a `range` query value; unknown or missing values give the default tab. */
export const readUpcomingRange = (value: string | null): TUpcomingRange =>
  UPCOMING_RANGES.find((range) => range === value) ?? DEFAULT_UPCOMING_RANGE;

const tabId = (range: TUpcomingRange) => `upcoming-tab-${range}`;
const PANEL_ID = 'upcoming-panel';

/**
 * Items of all loaded pages, each instalment once: a payment between two pages shifts the server's
 * offsets, which could otherwise repeat a row.
 */
const uniqueItems = (pages: { items: TUpcomingEmiItem[] }[]): TUpcomingEmiItem[] => {
  const seen = new Set<number>();
  return pages
    .flatMap((page) => page.items)
    .filter((item) => {
      if (seen.has(item.emiId)) return false;
      seen.add(item.emiId);
      return true;
    });
};

const UpcomingEmiRow = ({
  item,
  onOpen,
  actions,
}: {
  item: TUpcomingEmiItem;
  onOpen: () => void;
  /** Buttons under the row (the Overdue tab's lock and reminder), outside its link. */
  actions?: ReactNode;
}) => {
  const { t } = useTranslation();
  return (
    <ListItem
      disablePadding
      divider
      data-testid={`upcoming-row-${item.emiId}`}
      sx={{ flexDirection: 'column', alignItems: 'stretch' }}
    >
      <ListItemButton onClick={onOpen} sx={{ py: 1.25, alignItems: 'flex-start' }}>
        <Stack sx={{ flex: 1, minWidth: 0 }} spacing={0.25}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }} noWrap data-testid="upcoming-row-name">
            {item.customerName}
          </Typography>
          <Typography variant="body2" color="textSecondary" noWrap>
            {formatMobile(item.mobile)}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {t('upcoming.rowDue', { no: item.instalmentNo, date: formatDate(item.dueDate) })}
          </Typography>
        </Stack>
        <Stack spacing={0.75} sx={{ alignItems: 'flex-end', ml: 1 }}>
          <Typography
            variant="subtitle1"
            sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}
            data-testid="upcoming-row-amount"
          >
            {formatRupees(item.outstandingPaise)}
          </Typography>
          <InstalmentStatusChip status={item.status} />
        </Stack>
      </ListItemButton>
      {actions ? (
        <Stack direction="row" spacing={1} sx={{ px: 2, pb: 1.25, justifyContent: 'flex-end' }}>
          {actions}
        </Stack>
      ) : null}
    </ListItem>
  );
};

/**
 * What the devices feature adds to the Overdue tab (issue 28), composed in by app/ (features do not
 * import each other): "Lock" on each row and "Lock all overdue" above the list.
 */
export type TOverdueDeviceActions = {
  renderLock: (item: TUpcomingEmiItem) => ReactNode;
  renderLockAll: () => ReactNode;
};

/**
 * One tab's list: the unpaid instalments in that range, page by page with "Load more"; on the
 * Overdue tab each row offers "Lock" and "Send reminder", and "Lock all overdue" leads the list.
 * Offline, the pages last fetched, under a notice saying as of when (issue 28).
 */
const UpcomingList = ({
  range,
  overdueActions,
}: {
  range: TUpcomingRange;
  overdueActions?: TOverdueDeviceActions | undefined;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useGetUpcomingEmiInfiniteQuery(range, { refetchOnMountOrArgChange: true });
  const savedAt = useSavedReadTime(list);

  if (list.isLoading) return <PageSkeleton />;
  if (!list.data) return <LoadError message={list.error?.message} onRetry={list.refetch} />;

  const notice = savedAt === null ? null : <SavedReadNotice savedAt={savedAt} onRetry={list.refetch} />;
  const items = uniqueItems(list.data.pages);
  const total = list.data.pages.at(-1)?.total ?? items.length;
  if (items.length === 0) {
    return (
      <>
        {notice}
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 5 }}>
            <Typography color="textSecondary" data-testid="upcoming-empty">
              {t(`upcoming.empty.${range}`)}
            </Typography>
          </CardContent>
        </Card>
      </>
    );
  }
  const isOverdue = range === 'overdue';
  return (
    <>
      {notice}
      {isOverdue && overdueActions ? (
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
          {overdueActions.renderLockAll()}
        </Stack>
      ) : null}
      <Card
        sx={{ opacity: list.isFetching && !list.isFetchingNextPage ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <List disablePadding data-testid="upcoming-list">
          {items.map((item) => (
            <UpcomingEmiRow
              key={item.emiId}
              item={item}
              onOpen={() => navigate(appPaths.emiDetails.href(item.customerId))}
              actions={
                isOverdue ? (
                  <>
                    <SendReminderButton
                      customerId={item.customerId}
                      testId={`overdue-remind-${item.customerId}`}
                    />
                    {overdueActions?.renderLock(item)}
                  </>
                ) : undefined
              }
            />
          ))}
        </List>
      </Card>
      <Stack spacing={1} sx={{ alignItems: 'center', mt: 2 }}>
        <Typography variant="caption" color="textSecondary" data-testid="upcoming-shown">
          {t('upcoming.shown', { shown: items.length, total })}
        </Typography>
        {list.hasNextPage ? (
          <Button
            variant="outlined"
            onClick={() => list.fetchNextPage()}
            loading={list.isFetchingNextPage}
            data-testid="upcoming-load-more"
          >
            {t('upcoming.loadMore')}
          </Button>
        ) : null}
      </Stack>
    </>
  );
};

/**
 * Spec §2 up_coming_emi: tabs Today / This week / Overdue with their counts; the tab lives in the
 * URL (`?range=`), so the dashboard links to a tab and Back restores it. Tapping a row opens
 * emi_details for that customer. On the Overdue tab each row also sends a reminder to the phone
 * and, with `overdueActions` (the devices feature's), locks it; "Lock all overdue" leads the list.
 */
export const UpcomingEmiPage = ({ overdueActions }: { overdueActions?: TOverdueDeviceActions } = {}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const range = readUpcomingRange(searchParams.get(UPCOMING_RANGE_PARAM));
  const counts = useGetUpcomingEmiCountsQuery(undefined, { refetchOnMountOrArgChange: true });

  return (
    <>
      <PageHeader title={t('pages.up_coming_emi')} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={range}
          onChange={(_event, next: TUpcomingRange) =>
            navigate(appPaths.upComingEmi.href(next), { replace: true })
          }
          variant="fullWidth"
          aria-label={t('upcoming.tabsLabel')}
        >
          {UPCOMING_RANGES.map((tab) => (
            <Tab
              key={tab}
              value={tab}
              id={tabId(tab)}
              aria-controls={PANEL_ID}
              data-testid={tabId(tab)}
              sx={{ minWidth: 0, px: 1 }}
              label={
                <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
                  <span>{t(`upcoming.tabs.${tab}`)}</span>
                  {counts.data ? (
                    <Chip
                      size="small"
                      color={tab === 'overdue' && counts.data[tab] > 0 ? 'error' : 'default'}
                      label={counts.data[tab]}
                      data-testid={`upcoming-count-${tab}`}
                      sx={{ height: 20, '& .MuiChip-label': { px: 0.75 } }}
                    />
                  ) : null}
                </Stack>
              }
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(range)}>
        <UpcomingList key={range} range={range} overdueActions={overdueActions} />
      </Box>
    </>
  );
};
