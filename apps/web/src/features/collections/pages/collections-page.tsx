import { DPD_BUCKET_KEYS, type TDpdBucket } from '@kisht/domain/collections/collections.rules';
import type { TCollectionsSummary } from '@kisht/domain/collections/collections.schema';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DownloadCsvButton } from '../../../components/download-csv-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { ShopPicker, type TShopOption } from '../../../components/shop-picker';
import { formatDate, formatRupees } from '../../../lib/format';
import { LANGUAGE_BCP47, type TLanguage } from '../../../lib/languages';
import { appPaths, RETAILER_ID_PARAM, readRetailerIdParam } from '../../../lib/paths';
import {
  type TCollectionsFilter,
  useGetCollectionsSummaryQuery,
  useLazyGetCollectionsCsvQuery,
} from '../collections-api';
import { bucketLabelKey, bucketShortLabelKey, formatBps } from '../collections-format';
import { WorkbookButton } from '../components/workbook-button';

// chart.js comes with this chunk only, after the figures (issue 29).
const BucketChart = lazy(() => import('../components/bucket-chart'));

/** Query parameters of the collection-efficiency period. */
const FROM_PARAM = 'from';
const TO_PARAM = 'to';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const readDate = (params: URLSearchParams, name: string): string | undefined => {
  const value = params.get(name) ?? '';
  return DATE.test(value) ? value : undefined;
};

/**
 * A roll step's label: the month it ends in ("Nov 2026"), in the UI's language (its BCP 47 tag;
 * the spec's codes such as `hn` are not standard ones).
 */
const monthOf = (isoDate: string, language: string) =>
  new Intl.DateTimeFormat(LANGUAGE_BCP47[language as TLanguage] ?? 'en', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${isoDate}T00:00:00Z`));

const BucketList = ({
  summary,
  onOpen,
}: {
  summary: TCollectionsSummary;
  onOpen: (bucket: TDpdBucket) => void;
}) => {
  const { t } = useTranslation();
  return (
    <List disablePadding data-testid="collections-buckets">
      {summary.buckets.map((row) => (
        <ListItemButton
          key={row.bucket}
          divider
          onClick={() => onOpen(row.bucket)}
          data-testid={`collections-bucket-${row.bucket}`}
          sx={{ px: 0 }}
        >
          <ListItemText
            primary={t(bucketLabelKey(row.bucket))}
            secondary={t('collections.bucketLine', {
              count: row.loans,
              overdue: formatRupees(row.overduePaise),
            })}
          />
          <Typography sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
            {formatRupees(row.outstandingPaise)}
          </Typography>
        </ListItemButton>
      ))}
    </List>
  );
};

const RollRates = ({ summary }: { summary: TCollectionsSummary }) => {
  const { t, i18n } = useTranslation();
  const steps = [...new Map(summary.rollRates.map((row) => [`${row.fromDate}>${row.toDate}`, row])).values()];
  const starting = DPD_BUCKET_KEYS.slice(0, -1);
  return (
    <TableContainer>
      <Table
        size="small"
        aria-label={t('collections.rollRates.title')}
        data-testid="collections-roll-rates"
        sx={{ '& td, & th': { px: 1 } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>{t('collections.rollRates.month')}</TableCell>
            {starting.map((bucket) => (
              <TableCell key={bucket} align="right" sx={{ whiteSpace: 'nowrap' }}>
                {t(bucketShortLabelKey(bucket))}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {steps.map((step) => (
            <TableRow key={`${step.fromDate}>${step.toDate}`}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{monthOf(step.toDate, i18n.language)}</TableCell>
              {starting.map((bucket) => {
                const cell = summary.rollRates.find(
                  (row) =>
                    row.fromDate === step.fromDate && row.toDate === step.toDate && row.fromBucket === bucket,
                );
                return (
                  <TableCell
                    key={bucket}
                    align="right"
                    title={t('collections.rollRates.cell', {
                      count: cell?.loans ?? 0,
                      rolled: cell?.rolledForward ?? 0,
                    })}
                  >
                    {formatBps(cell?.rateBps ?? null)}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

const Shops = ({
  summary,
  onOpen,
}: {
  summary: TCollectionsSummary;
  onOpen: (retailerId: number) => void;
}) => {
  const { t } = useTranslation();
  return (
    <List disablePadding data-testid="collections-shops">
      {summary.shops.map((shop) => (
        <ListItemButton key={shop.retailerId} divider onClick={() => onOpen(shop.retailerId)} sx={{ px: 0 }}>
          <ListItemText
            primary={shop.name}
            secondary={t('collections.shopLine', {
              count: shop.buckets.reduce((total, row) => total + row.loans, 0),
              outstanding: formatRupees(shop.buckets.reduce((total, row) => total + row.outstandingPaise, 0)),
            })}
          />
          <Typography sx={{ fontWeight: 600 }}>
            {t('collections.par30Short', { value: formatBps(shop.par30.ratioBps) })}
          </Typography>
        </ListItemButton>
      ))}
    </List>
  );
};

type TCollectionsPageProps = {
  /** The shops a retailer can narrow the view to (composed in by the app); undefined hides the picker. */
  shopOptions?: TShopOption[] | undefined;
  /** The payment-reminder schedule's card (the reminders feature's), composed in by the app. */
  remindersCard?: ReactNode;
};

/**
 * The collections view (issue 29): the open loans by days past due (a chart and a list that opens
 * each bucket's loans), PAR 30, collection efficiency for a period (this month by default),
 * month-to-month roll rates and, with more than one shop, each shop's PAR 30; CSV and Excel
 * downloads. The shop and the period are kept in the URL.
 */
export const CollectionsPage = ({ shopOptions, remindersCard }: TCollectionsPageProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const filter: TCollectionsFilter = {
    retailerId: readRetailerIdParam(searchParams),
    from: readDate(searchParams, FROM_PARAM),
    to: readDate(searchParams, TO_PARAM),
  };
  const summary = useGetCollectionsSummaryQuery(filter);
  const [fetchCsv] = useLazyGetCollectionsCsvQuery();
  const data = summary.data;
  const bars = useMemo(
    () =>
      data
        ? data.buckets.map((row) => ({
            label: t(bucketLabelKey(row.bucket)),
            rupees: row.outstandingPaise / 100,
          }))
        : [],
    [data, t],
  );

  const setParam = (name: string, value: string | undefined) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearchParams(next, { replace: true });
  };
  const openBucket = (bucket: TDpdBucket) =>
    navigate(appPaths.collectionsLoans.href(bucket, filter.retailerId));

  if (summary.isLoading) return <PageSkeleton />;
  if (!data) return <LoadError message={summary.error?.message} onRetry={summary.refetch} />;
  const total = data.buckets.reduce((sum, row) => sum + row.outstandingPaise, 0);
  const fileStem = `collections-${data.asOf}`;

  return (
    <Stack spacing={2} data-testid="collections-page">
      <PageHeader
        title={t('collections.title')}
        subtitle={t('collections.asOf', { date: formatDate(data.asOf) })}
      />
      {shopOptions ? (
        <ShopPicker
          options={shopOptions}
          value={filter.retailerId}
          onChange={(shopId) =>
            setParam(RETAILER_ID_PARAM, shopId === undefined ? undefined : String(shopId))
          }
        />
      ) : null}

      <SectionCard title={t('collections.byDpd')} testId="collections-dpd">
        <Suspense fallback={null}>
          <BucketChart
            bars={bars}
            formatValue={(rupees) => formatRupees(Math.round(rupees * 100)).replace(/\.00$/, '')}
            description={t('collections.chartDescription', { total: formatRupees(total) })}
          />
        </Suspense>
        <BucketList summary={data} onOpen={openBucket} />
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="collections-total">
          {t('collections.total', {
            count: data.buckets.reduce((sum, row) => sum + row.loans, 0),
            outstanding: formatRupees(total),
          })}
        </Typography>
      </SectionCard>

      <SectionCard title={t('collections.par30.title')} testId="collections-par30">
        <Typography variant="h4" component="p">
          {formatBps(data.par30.ratioBps)}
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {data.par30.loans === 0
            ? t('collections.par30.none')
            : t('collections.par30.line', {
                count: data.par30.loans,
                atRisk: formatRupees(data.par30.outstandingPaise),
                outstanding: formatRupees(total),
              })}
        </Typography>
      </SectionCard>

      <SectionCard title={t('collections.efficiency.title')} testId="collections-efficiency">
        <Stack direction="row" spacing={1} sx={{ mb: 1.5 }}>
          <TextField
            type="date"
            size="small"
            label={t('collections.efficiency.from')}
            value={data.efficiency.from}
            onChange={(event) => setParam(FROM_PARAM, event.target.value || undefined)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'collections-from' } }}
            fullWidth
          />
          <TextField
            type="date"
            size="small"
            label={t('collections.efficiency.to')}
            value={data.efficiency.to}
            onChange={(event) => setParam(TO_PARAM, event.target.value || undefined)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'collections-to' } }}
            fullWidth
          />
        </Stack>
        <Typography variant="h4" component="p">
          {formatBps(data.efficiency.ratioBps)}
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {t('collections.efficiency.line', {
            collected: formatRupees(data.efficiency.collectedPaise),
            due: formatRupees(data.efficiency.duePaise),
          })}
        </Typography>
      </SectionCard>

      <SectionCard title={t('collections.rollRates.title')} testId="collections-rolls">
        <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
          {t('collections.rollRates.help')}
        </Typography>
        <RollRates summary={data} />
      </SectionCard>

      {data.shops.length > 1 ? (
        <SectionCard title={t('collections.shops')} testId="collections-shops-card">
          <Shops summary={data} onOpen={(shopId) => setParam(RETAILER_ID_PARAM, String(shopId))} />
        </SectionCard>
      ) : null}

      {remindersCard}

      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <DownloadCsvButton
          fileName={`${fileStem}.csv`}
          fetchCsv={() => fetchCsv(filter).unwrap()}
          testId="collections-csv"
        />
        <WorkbookButton filter={filter} fileName={`${fileStem}.xlsx`} />
      </Stack>
    </Stack>
  );
};
