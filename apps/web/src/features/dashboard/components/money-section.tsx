import type { TTotalOutstanding } from '@kisht/domain/emi/emi.schema';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import SavingsIcon from '@mui/icons-material/Savings';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import type { TStat, TStatLayout } from '../../../components/stat-group';
import { StatGroup } from '../../../components/stat-group';
import { useGetTotalOutstandingQuery } from '../dashboard-api';
import { moneyFigure } from '../money';

const MONEY_STATS: ReadonlyArray<{
  key: keyof TTotalOutstanding;
  labelKey: `dashboard.money.${'outstanding' | 'overdue' | 'collectedThisMonth' | 'collected'}`;
  testId: string;
  icon: TStat['icon'];
  color: TStat['color'];
}> = [
  {
    key: 'outstandingPaise',
    labelKey: 'dashboard.money.outstanding',
    testId: 'dashboard-outstanding',
    icon: AccountBalanceWalletIcon,
    color: 'primary',
  },
  {
    key: 'overduePaise',
    labelKey: 'dashboard.money.overdue',
    testId: 'dashboard-overdue',
    icon: WarningAmberIcon,
    color: 'error',
  },
  {
    key: 'collectedThisMonthPaise',
    labelKey: 'dashboard.money.collectedThisMonth',
    testId: 'dashboard-collected-month',
    icon: CalendarMonthIcon,
    color: 'success',
  },
  {
    key: 'collectedPaise',
    labelKey: 'dashboard.money.collected',
    testId: 'dashboard-collected-total',
    icon: SavingsIcon,
    color: 'success',
  },
];

/**
 * The dashboard's money figures (getTotalOutstanding): total outstanding, overdue, collected this
 * month and collected in all, shortened (spec §9 K / L / Cr) with the full rupees in a tooltip.
 */
export const MoneySection = ({ layout }: { layout: TStatLayout }) => {
  const { t } = useTranslation();
  const money = useGetTotalOutstandingQuery(undefined, { refetchOnMountOrArgChange: true });

  const placeholder = money.isLoading ? (
    <Skeleton variant="rounded" height={layout === 'list' ? 200 : 190} />
  ) : money.data ? undefined : (
    <LoadError message={money.error?.message} onRetry={money.refetch} />
  );

  return (
    <StatGroup
      title={t('dashboard.money.title')}
      layout={layout}
      testId="dashboard-money"
      placeholder={placeholder}
      stats={MONEY_STATS.map(({ key, labelKey, testId, icon, color }) => {
        const figure = moneyFigure(money.data?.[key]);
        return {
          label: t(labelKey),
          value: figure.hasRupeeSign
            ? t('dashboard.money.shortRupees', { amount: figure.short })
            : figure.short,
          fullValue: figure.full,
          icon,
          color,
          testId,
        };
      })}
    />
  );
};
