import { lockStatusLabel } from '@kisht/domain/common/enums';
import type { TMyInstalmentRow, TMyLoan } from '@kisht/domain/emi/emi.schema';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { formatDate, formatRupees } from '../../../lib/format';
import { BorrowerDueNote } from '../components/borrower-due-note';
import { EmiTotals } from '../components/emi-totals';
import { HowToPayCard } from '../components/how-to-pay-card';
import { InstalmentTable } from '../components/instalment-table';
import { useGetMyLoansQuery } from '../emi-api';
import { isPayable } from '../record-payment-form';

const sumOf = (rows: TMyInstalmentRow[], pick: (row: TMyInstalmentRow) => number) =>
  rows.reduce((total, row) => total + pick(row), 0);

/**
 * What is overdue: the total due now (late fees included), the late fees in it, and each overdue
 * instalment with its total due, due date and days overdue.
 */
const OverdueNotice = ({ overdue }: { overdue: TMyInstalmentRow[] }) => {
  const { t } = useTranslation();
  const lateFeesPaise = sumOf(overdue, (row) => row.lateFeePaise);
  return (
    <Alert severity="error" data-testid="my-loan-overdue">
      <Typography variant="body1" sx={{ fontWeight: 600 }} data-testid="my-loan-overdue-total">
        {t('myLoan.overdueTotal', { amount: formatRupees(sumOf(overdue, (row) => row.totalDuePaise)) })}
      </Typography>
      {overdue.map((row) => (
        <Typography key={row.id} variant="body2" data-testid={`my-loan-overdue-${row.instalmentNo}`}>
          {t('myLoan.overdueInstalment', {
            no: row.instalmentNo,
            amount: formatRupees(row.totalDuePaise),
            date: formatDate(row.dueDate),
            count: row.daysOverdue,
          })}
        </Typography>
      ))}
      {lateFeesPaise > 0 ? (
        <Typography variant="body2" data-testid="my-loan-overdue-late-fees">
          {t('myLoan.overdueLateFees', { amount: formatRupees(lateFeesPaise) })}
        </Typography>
      ) : null}
    </Alert>
  );
};

/** What the app composes into each loan: e.g. the payments feature's "Pay online". */
type TRenderPayOnline = (loan: TMyLoan) => ReactNode;

const MyLoanCard = ({ loan, renderPayOnline }: { loan: TMyLoan; renderPayOnline?: TRenderPayOnline }) => {
  const { t } = useTranslation();
  const lockLabel = lockStatusLabel(loan.lockStatus);
  const unpaid = [...loan.instalments].sort((a, b) => a.instalmentNo - b.instalmentNo).filter(isPayable);
  const overdue = unpaid.filter((row) => row.status === 'overdue');
  // "Next EMI" is the next one not yet overdue; overdue ones are shown as overdue above it.
  const nextDue = unpaid.find((row) => row.status !== 'overdue');
  return (
    <Stack spacing={2} data-testid={`my-loan-${loan.customerId}`}>
      <Card>
        <CardContent>
          <Stack spacing={1.5}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography
                variant="h6"
                component="h2"
                sx={{ flex: 1, minWidth: 0 }}
                data-testid="my-loan-product"
              >
                {loan.productName}
              </Typography>
              <Chip
                size="small"
                variant="outlined"
                color={lockLabel === 'Locked' ? 'error' : 'success'}
                icon={lockLabel === 'Locked' ? <LockIcon /> : <LockOpenIcon />}
                label={t(`lockStatus.${lockLabel}`)}
                data-testid="my-loan-lock-status"
              />
            </Stack>
            {overdue.length > 0 ? <OverdueNotice overdue={overdue} /> : null}
            {nextDue ? (
              <Typography variant="body1" data-testid="my-loan-next-due">
                {t('myLoan.nextDue', {
                  amount: formatRupees(nextDue.totalDuePaise),
                  date: formatDate(nextDue.dueDate),
                })}
              </Typography>
            ) : null}
            {unpaid.length === 0 ? (
              <Alert severity="success" data-testid="my-loan-completed">
                {t('emi.loanCompleted')}
              </Alert>
            ) : null}
          </Stack>
        </CardContent>
      </Card>
      <EmiTotals totals={loan.totals} />
      <Card>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
            {t('emi.schedule.title')}
          </Typography>
          <InstalmentTable
            instalments={loan.instalments}
            renderNote={(instalment) => <BorrowerDueNote instalment={instalment} />}
          />
        </CardContent>
      </Card>
      {renderPayOnline?.(loan)}
      <HowToPayCard payTo={loan.payTo} customerId={loan.customerId} />
    </Stack>
  );
};

/**
 * The dashboard of a customer user (spec §4): "My loan". For each of their loans the product, the
 * phone's lock status (Locked / Unlocked), what is overdue (each overdue instalment with its days
 * overdue and total due, late fee included), the next EMI not yet overdue, totals, the instalments
 * with their statuses, days overdue and late fees, and how to pay the retailer (UPI ID, a UPI QR
 * code and link when the server gives one). `renderPayOnline` adds, per loan, what the app composes
 * from another feature (the payment gateway's "Pay online"), above "How to pay".
 */
export const MyLoanPage = ({ renderPayOnline }: { renderPayOnline?: TRenderPayOnline } = {}) => {
  const { t } = useTranslation();
  const loans = useGetMyLoansQuery(undefined, { refetchOnMountOrArgChange: true });

  const renderBody = () => {
    if (loans.isLoading) return <PageSkeleton />;
    if (!loans.data) return <LoadError message={loans.error?.message} onRetry={loans.refetch} />;
    if (loans.data.length === 0) {
      return (
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 5 }}>
            <Typography color="textSecondary" data-testid="my-loan-empty">
              {t('myLoan.empty')}
            </Typography>
          </CardContent>
        </Card>
      );
    }
    return (
      <Stack spacing={4}>
        {loans.data.map((loan) => (
          <MyLoanCard key={loan.customerId} loan={loan} renderPayOnline={renderPayOnline} />
        ))}
      </Stack>
    );
  };

  return (
    <>
      <PageHeader title={t('myLoan.title')} />
      {renderBody()}
    </>
  );
};
