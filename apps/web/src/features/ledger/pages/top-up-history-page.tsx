import type { TLedgerMovementKind } from '@kisht/domain/ledger/ledger.schema';
import { LEDGER_MOVEMENT_KINDS } from '@kisht/domain/ledger/ledger.schema';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DownloadCsvButton } from '../../../components/download-csv-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { appPaths } from '../../../lib/paths';
import { MovementRow } from '../components/movement-row';
import type { TTransactionFilters } from '../ledger-api';
import { useLazyGetTransactionsCsvQuery, useListTransactionsInfiniteQuery } from '../ledger-api';

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

const isKind = (value: string | null): value is TLedgerMovementKind =>
  LEDGER_MOVEMENT_KINDS.some((kind) => kind === value);

/** The filters live in the URL (spec §3 query parameters from, to, user_id), so Back restores them. */
const readFilters = (params: URLSearchParams): TTransactionFilters => {
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return CALENDAR_DAY.test(value) ? value : '';
  };
  const type = params.get('type');
  const userId = Number(params.get('user_id'));
  return {
    from: day('from'),
    to: day('to'),
    type: isKind(type) ? type : '',
    userId: Number.isInteger(userId) && userId > 0 ? userId : undefined,
  };
};

/**
 * The rows of one filter: loading, error, empty, or the movements, loading the next page as the
 * end of the list scrolls into view (an IntersectionObserver on the last row; a "Load more"
 * button where there is none, and to retry a failed page).
 */
const TransactionResults = ({ filters, onClear }: { filters: TTransactionFilters; onClear: () => void }) => {
  const { t } = useTranslation();
  const list = useListTransactionsInfiniteQuery(filters, { refetchOnMountOrArgChange: true });
  const endRef = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetching, isFetchNextPageError, fetchNextPage } = list;

  useEffect(() => {
    const end = endRef.current;
    if (!end || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetching && !isFetchNextPageError)
        void fetchNextPage();
    });
    observer.observe(end);
    return () => observer.disconnect();
  }, [hasNextPage, isFetching, isFetchNextPageError, fetchNextPage]);

  if (list.isLoading) return <PageSkeleton />;
  if (!list.data) return <LoadError message={list.error?.message} onRetry={list.refetch} />;
  const movements = list.data.pages.flatMap((page) => page.items);
  if (movements.length === 0) {
    const isFiltered = filters.from !== '' || filters.to !== '' || filters.type !== '';
    return (
      <Card>
        <CardContent sx={{ textAlign: 'center', py: 5 }}>
          <Typography color="textSecondary" sx={{ mb: isFiltered ? 2 : 0 }} data-testid="ledger-empty">
            {isFiltered ? t('ledger.history.emptyFiltered') : t('ledger.history.empty')}
          </Typography>
          {isFiltered && <Button onClick={onClear}>{t('ledger.filters.clear')}</Button>}
        </CardContent>
      </Card>
    );
  }
  return (
    <Card sx={{ opacity: list.isFetching && !list.isFetchingNextPage ? 0.6 : 1 }}>
      <List disablePadding aria-label={t('ledger.history.listLabel')} data-testid="ledger-movements">
        {movements.map((movement) => (
          <MovementRow key={movement.id} movement={movement} />
        ))}
      </List>
      {hasNextPage && (
        <Stack
          ref={endRef}
          direction="row"
          spacing={1.5}
          sx={{ justifyContent: 'center', alignItems: 'center', py: 2 }}
        >
          {list.isFetchingNextPage ? (
            <CircularProgress size={24} aria-label={t('ledger.history.loadingMore')} />
          ) : (
            <>
              {isFetchNextPageError && (
                <Typography variant="body2" color="textSecondary">
                  {t('ledger.history.loadMoreFailed')}
                </Typography>
              )}
              <Button size="small" onClick={() => void fetchNextPage()} data-testid="ledger-load-more">
                {isFetchNextPageError ? t('common.retry') : t('ledger.history.loadMore')}
              </Button>
            </>
          )}
        </Stack>
      )}
    </Card>
  );
};

/**
 * Spec §2 top_up_history (`/api/transaction/getRetailerTransactionV2`): every key movement of the
 * signed-in shop (or, with `user_id`, of its mini-retailer), newest first: top-ups, transfers,
 * keys used per customer, refunds and purchases. Filters by +05:30 day range (`from`, `to`) and
 * type, kept in the URL; the list loads more as it scrolls; "Download CSV" exports the same
 * filter. No global spinner here (spec §2; app/layout/global-loading).
 */
export const TopUpHistoryPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const filters = readFilters(searchParams);
  const [fetchCsv] = useLazyGetTransactionsCsvQuery();

  const applyFilters = (next: Partial<TTransactionFilters>) =>
    navigate(appPaths.topUpHistory.href({ ...filters, ...next }), { replace: true });
  const clearFilters = () =>
    navigate(appPaths.topUpHistory.href({ userId: filters.userId }), { replace: true });

  return (
    <>
      <PageHeader
        title={t('pages.top_up_history')}
        action={
          <DownloadCsvButton
            fileName="top-up-history.csv"
            fetchCsv={() => fetchCsv(filters).unwrap()}
            testId="ledger-download-csv"
          />
        }
      />
      <Stack direction="row" spacing={1.5} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
        <TextField
          type="date"
          label={t('ledger.filters.from')}
          value={filters.from}
          onChange={(event) => applyFilters({ from: event.target.value })}
          size="small"
          sx={{ flex: '1 1 140px' }}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'ledger-from', max: filters.to || undefined },
          }}
        />
        <TextField
          type="date"
          label={t('ledger.filters.to')}
          value={filters.to}
          onChange={(event) => applyFilters({ to: event.target.value })}
          size="small"
          sx={{ flex: '1 1 140px' }}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'ledger-to', min: filters.from || undefined },
          }}
        />
        <TextField
          select
          label={t('ledger.filters.type')}
          value={filters.type}
          onChange={(event) => applyFilters({ type: event.target.value as TTransactionFilters['type'] })}
          size="small"
          sx={{ flex: '1 1 160px' }}
          slotProps={{
            select: { displayEmpty: true },
            inputLabel: { shrink: true },
            htmlInput: { 'data-testid': 'ledger-type' },
          }}
        >
          <MenuItem value="">{t('ledger.filters.allTypes')}</MenuItem>
          {LEDGER_MOVEMENT_KINDS.map((kind) => (
            <MenuItem key={kind} value={kind}>
              {t(`ledger.kind.${kind}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TransactionResults
        key={`${filters.from}|${filters.to}|${filters.type}|${filters.userId ?? ''}`}
        filters={filters}
        onClear={clearFilters}
      />
    </>
  );
};
