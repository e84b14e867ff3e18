import { DPD_BUCKET_KEYS, type TDpdBucket } from '@kisht/domain/collections/collections.rules';
import type { TCollectionsCustomer } from '@kisht/domain/collections/collections.schema';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { formatDate, formatMobile, formatRupees } from '../../../lib/format';
import { appPaths, BUCKET_PARAM, readRetailerIdParam } from '../../../lib/paths';
import { useGetCollectionsLoansInfiniteQuery } from '../collections-api';
import { bucketLabelKey } from '../collections-format';

/** The bucket a URL names, or undefined for none or an unknown one. */
export const readBucketParam = (params: URLSearchParams): TDpdBucket | undefined =>
  DPD_BUCKET_KEYS.find((bucket) => bucket === params.get(BUCKET_PARAM));

const LoanRow = ({ loan, actions }: { loan: TCollectionsCustomer; actions: ReactNode }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ListItem
      disablePadding
      divider
      data-testid={`collections-loan-${loan.customerId}`}
      sx={{ flexDirection: 'column', alignItems: 'stretch' }}
    >
      <ListItemButton
        onClick={() => navigate(appPaths.customerDetails.href(loan.customerId))}
        sx={{ py: 1.25, alignItems: 'flex-start' }}
      >
        <Stack sx={{ flex: 1, minWidth: 0 }} spacing={0.25}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }} noWrap>
            {loan.customerName}
          </Typography>
          <Typography variant="body2" color="textSecondary" noWrap>
            {`${formatMobile(loan.mobile)} · ${loan.shopName}`}
          </Typography>
          <Typography variant="body2" color={loan.dpd > 0 ? 'error' : 'textSecondary'}>
            {loan.oldestDueDate
              ? t('collections.loans.late', { count: loan.dpd, date: formatDate(loan.oldestDueDate) })
              : t('collections.loans.current')}
          </Typography>
        </Stack>
        <Stack sx={{ alignItems: 'flex-end', ml: 1 }} spacing={0.25}>
          <Typography sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
            {formatRupees(loan.overduePaise)}
          </Typography>
          <Typography variant="caption" color="textSecondary" sx={{ whiteSpace: 'nowrap' }}>
            {t('collections.loans.ofOutstanding', { outstanding: formatRupees(loan.outstandingPaise) })}
          </Typography>
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

type TCollectionsLoansPageProps = {
  /**
   * The buttons under a late loan ("Send reminder", "Lock"), composed in by the app (features do
   * not import each other); none for a current loan, or when absent.
   */
  renderActions?: (loan: TCollectionsCustomer) => ReactNode;
};

/**
 * collections_loans (issue 29): the open loans of one days-past-due bucket, most late first, with
 * what is overdue and outstanding; a row opens customer_details, and a late loan's buttons
 * (reminder, lock) sit under it. "Load more" fetches the next page. An unknown bucket goes back to
 * the collections view.
 */
export const CollectionsLoansPage = ({ renderActions }: TCollectionsLoansPageProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const bucket = readBucketParam(searchParams);
  const retailerId = readRetailerIdParam(searchParams);
  const list = useGetCollectionsLoansInfiniteQuery(
    { bucket: bucket ?? 'current', retailerId },
    { skip: bucket === undefined },
  );
  if (bucket === undefined) return <Navigate to={appPaths.collections.href(retailerId)} replace />;
  if (list.isLoading) return <PageSkeleton />;
  if (!list.data) return <LoadError message={list.error?.message} onRetry={list.refetch} />;
  const loans = list.data.pages.flatMap((page) => page.items);
  const total = list.data.pages.at(-1)?.total ?? 0;

  return (
    <Stack spacing={2} data-testid="collections-loans-page">
      <PageHeader
        title={t(bucketLabelKey(bucket))}
        subtitle={t('collections.loans.count', { count: total })}
        onBack={() => navigate(appPaths.collections.href(retailerId))}
      />
      {loans.length === 0 ? (
        <Typography color="textSecondary">{t('collections.loans.empty')}</Typography>
      ) : (
        <Card>
          <List disablePadding>
            {loans.map((loan) => (
              <LoanRow
                key={loan.customerId}
                loan={loan}
                actions={loan.dpd > 0 ? renderActions?.(loan) : null}
              />
            ))}
          </List>
        </Card>
      )}
      {list.hasNextPage ? (
        <Button onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t('upcoming.loadMore')}
        </Button>
      ) : null}
    </Stack>
  );
};
