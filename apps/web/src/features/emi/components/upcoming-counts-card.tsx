import DateRangeIcon from '@mui/icons-material/DateRange';
import ReportIcon from '@mui/icons-material/Report';
import TodayIcon from '@mui/icons-material/Today';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error';
import type { TStat } from '../../../components/stat-group';
import { StatGroup } from '../../../components/stat-group';
import { useOrgConfig } from '../../../lib/http/org-config-api';
import type { TUpcomingRange } from '../../../lib/paths';
import { appPaths } from '../../../lib/paths';
import { useGetUpcomingEmiCountsQuery } from '../emi-api';

const numberFormat = new Intl.NumberFormat('en-IN');

const RANGE_STATS: ReadonlyArray<{
  range: TUpcomingRange;
  icon: TStat['icon'];
  color: TStat['color'];
}> = [
  { range: 'today', icon: TodayIcon, color: 'warning' },
  { range: 'week', icon: DateRangeIcon, color: 'info' },
  { range: 'overdue', icon: ReportIcon, color: 'error' },
];

/**
 * The dashboard's "EMIs due" figures: unpaid instalments due today, this week and overdue; each
 * opens up_coming_emi on that tab. Shown in the organisation's dashboard layout (cards or list).
 */
export const UpcomingCountsCard = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgConfig = useOrgConfig();
  const counts = useGetUpcomingEmiCountsQuery(undefined, { refetchOnMountOrArgChange: true });
  const layout = orgConfig?.pages.dashboard === 'list' ? 'list' : 'cards';

  const placeholder = counts.isLoading ? (
    <Skeleton variant="rounded" height={layout === 'list' ? 150 : 100} />
  ) : counts.data ? undefined : (
    <LoadError message={counts.error?.message} onRetry={counts.refetch} />
  );

  return (
    <StatGroup
      title={t('upcoming.dashboardTitle')}
      layout={layout}
      columns={3}
      testId="dashboard-upcoming"
      placeholder={placeholder}
      stats={RANGE_STATS.map(({ range, icon, color }) => ({
        label: t(`upcoming.tabs.${range}`),
        value: numberFormat.format(counts.data?.[range] ?? 0),
        icon,
        color,
        testId: `dashboard-upcoming-${range}`,
        onOpen: () => navigate(appPaths.upComingEmi.href(range)),
      }))}
    />
  );
};
