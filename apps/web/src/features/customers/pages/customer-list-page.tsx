import type { TCustomerStatusWord } from '@kisht/domain/common/enums';
import { CUSTOMER_STATUS_WORDS, STATUS_FILTER_ALL } from '@kisht/domain/common/enums';
import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router';
import { DownloadCsvButton } from '../../../components/download-csv-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SavedReadNotice } from '../../../components/saved-read-notice';
import type { TShopOption } from '../../../components/shop-picker';
import { ShopPicker } from '../../../components/shop-picker';
import { formatDateTime } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import type { TCustomerListArgs } from '../../../lib/http/customer-list-api';
import { customerListApi, useListCustomersInfiniteQuery } from '../../../lib/http/customer-list-api';
import { useSavedReadTime } from '../../../lib/http/offline-reads-slice';
import { useOrgConfig } from '../../../lib/http/org-config-api';
import type { TCustomerListFilters } from '../../../lib/paths';
import { appPaths, readRetailerIdParam } from '../../../lib/paths';
import { VirtualCustomerList } from '../components/virtual-customer-list';
import type { TCustomerListState, TStateWithCustomerList } from '../customer-list-slice';
import {
  customerListKey,
  customerListLoaded,
  lastLoadedListOf,
  restorableListState,
  selectCustomerList,
} from '../customer-list-slice';
import { useLazyGetCustomersCsvQuery } from '../customers-api';
import { openCustomerTarget } from '../open-customer';

const SEARCH_DEBOUNCE_MS = 400;
/**
 * A list put back as it was left is refreshed (every loaded page) only when its data is older than
 * this, s; a list shown afresh is always reloaded from its first page.
 */
export const RESTORED_LIST_FRESH_SECONDS = 30;

const isStatusWord = (value: string | null): value is TCustomerStatusWord =>
  CUSTOMER_STATUS_WORDS.some((word) => word === value);

/** The list filters live in the URL, so the dashboard can link to them and Back restores them. */
const readFilters = (params: URLSearchParams): TCustomerListArgs => {
  const status = params.get('status');
  return {
    status: isStatusWord(status) ? status : STATUS_FILTER_ALL,
    search: params.get('search')?.trim() ?? '',
    retailerId: readRetailerIdParam(params),
  };
};

/**
 * Customers of all loaded pages, each once: a customer added between two pages shifts the
 * server's offsets, which could otherwise repeat a row.
 */
const uniqueCustomers = (pages: { items: TCustomerListItem[] }[]): TCustomerListItem[] => {
  const seen = new Set<number>();
  return pages
    .flatMap((page) => page.items)
    .filter((customer) => {
      if (seen.has(customer.id)) return false;
      seen.add(customer.id);
      return true;
    });
};

type TCustomerResultsProps = {
  filters: TCustomerListArgs;
  restore: Pick<TCustomerListState, 'scrollPosition' | 'measuredRows'> | null;
  onOpen: (customer: TCustomerListItem) => void;
  onClearFilters: () => void;
};

/**
 * Shown above the rows when a refresh failed: the list is what was last loaded, with a retry;
 * offline, as of when (the one offline notice of every screen read offline, issue 28), else that
 * the server could not refresh it.
 */
const StaleListNotice = ({
  loadedAt,
  isOffline,
  onRetry,
}: {
  loadedAt: number | undefined;
  isOffline: boolean;
  onRetry: () => void;
}) => {
  const { t } = useTranslation();
  if (isOffline && loadedAt !== undefined) return <SavedReadNotice savedAt={loadedAt} onRetry={onRetry} />;
  const time =
    loadedAt === undefined ? t('common.notAvailable') : formatDateTime(new Date(loadedAt).toISOString());
  return (
    <Alert
      severity="warning"
      icon={<CloudOffIcon />}
      sx={{ mb: 2 }}
      data-testid="customer-list-stale"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {t('customers.refreshFailedShowingLast', { time })}
    </Alert>
  );
};

/**
 * One filtered list: loading, error, empty, or the virtualised rows that load more as they scroll.
 * Offline, the list's pages come from the saved reads (issue 28: also after a reload) under a
 * notice saying as of when. When a refresh fails otherwise (server unreachable, or nothing saved)
 * the rows it had stay, from the api cache or, once the cache has let them go, from the
 * customerList slice's last loaded rows, under a notice saying so; an error shows only when this
 * list never loaded.
 */
const CustomerResults = ({ filters, restore, onOpen, onClearFilters }: TCustomerResultsProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useDispatch();
  const listKey = customerListKey(filters);
  const list = useListCustomersInfiniteQuery(filters, {
    refetchOnMountOrArgChange: restore ? RESTORED_LIST_FRESH_SECONDS : true,
    // A list shown afresh starts again from its first page, whatever was cached before.
    refetchCachedPages: restore !== null,
  });
  const lastLoaded = useSelector((state: TStateWithCustomerList) =>
    lastLoadedListOf(selectCustomerList(state), listKey),
  );
  const loaded = list.data;
  // Rows served from the saved reads were loaded when they were saved, not when served.
  const savedAt = useSavedReadTime(list);
  const loadedAtMs = savedAt ?? list.fulfilledTimeStamp;

  // Each successful load is kept as the list's last loaded rows (for when the cache is gone).
  useEffect(() => {
    if (!loaded || loadedAtMs === undefined) return;
    dispatch(
      customerListLoaded({
        listKey,
        customers: uniqueCustomers(loaded.pages),
        total: loaded.pages.at(-1)?.total ?? 0,
        loadedAt: new Date(loadedAtMs).toISOString(),
      }),
    );
  }, [dispatch, listKey, loaded, loadedAtMs]);

  const snapshot = loaded ? null : lastLoaded;
  if (list.isLoading && !snapshot) return <PageSkeleton />;
  if (!loaded && !snapshot) return <LoadError message={list.error?.message} onRetry={list.refetch} />;
  const customers = loaded ? uniqueCustomers(loaded.pages) : (snapshot?.customers ?? []);
  // A failed refresh (not a failed next page, which the list's last row offers to retry).
  const hasRefreshFailed = list.isError && !list.isFetchNextPageError;
  const notice =
    loaded && savedAt !== null ? (
      <SavedReadNotice savedAt={savedAt} onRetry={list.refetch} />
    ) : hasRefreshFailed || (snapshot && !list.isFetching) ? (
      <StaleListNotice
        loadedAt={loaded ? loadedAtMs : snapshot ? Date.parse(snapshot.loadedAt) : undefined}
        isOffline={!navigator.onLine || (isApiError(list.error) && list.error.status === 'FETCH_ERROR')}
        onRetry={list.refetch}
      />
    ) : null;
  if (customers.length === 0) {
    const isFiltered =
      filters.search !== '' || filters.status !== STATUS_FILTER_ALL || filters.retailerId !== undefined;
    return (
      <>
        {notice}
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 5 }}>
            <Typography color="textSecondary" sx={{ mb: 2 }}>
              {isFiltered ? t('customers.emptyFiltered') : t('customers.empty')}
            </Typography>
            {isFiltered ? (
              <Button onClick={onClearFilters}>{t('customers.clearFilters')}</Button>
            ) : (
              <Button variant="contained" onClick={() => navigate(appPaths.addCustomer.href())}>
                {t('nav.addCustomer')}
              </Button>
            )}
          </CardContent>
        </Card>
      </>
    );
  }
  return (
    <>
      {notice}
      <VirtualCustomerList
        listKey={listKey}
        customers={customers}
        restore={restore}
        // The kept rows cannot load more: the next page needs the cache's pages.
        hasNextPage={loaded ? list.hasNextPage : false}
        isFetching={list.isFetching}
        isRefreshing={list.isFetching && !list.isFetchingNextPage}
        hasNextPageFailed={list.isFetchNextPageError}
        onLoadMore={list.fetchNextPage}
        onOpen={onOpen}
      />
    </>
  );
};

type TCustomerListPageProps = {
  /**
   * The shops a retailer can narrow the list to (spec §3 `retailer_id`), composed in by the app;
   * undefined hides the "Shop" picker (mini-retailers, or a retailer without mini-retailers).
   */
  shopOptions?: TShopOption[] | undefined;
};

/**
 * Spec §2 customer_list: search, status and (a retailer with mini-retailers) shop filter, and every
 * customer as one long list that loads the next page as its end scrolls into view and renders only
 * the rows on screen. Leaving it and coming back finds the same pages at the same scroll position
 * (spec §3: data, scrollPosition, total); a new search, status or shop starts the list again from
 * the top. Opening a row follows the
 * spec §2 rule. "Download CSV" exports the list as filtered (search, status, shop) to `customers.csv`.
 */
export const CustomerListPage = ({ shopOptions }: TCustomerListPageProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgConfig = useOrgConfig();
  const [searchParams] = useSearchParams();
  const filters = readFilters(searchParams);
  const listKey = customerListKey(filters);
  const [searchText, setSearchText] = useState(filters.search);
  const [fetchCustomersCsv] = useLazyGetCustomersCsvQuery();
  const cachedList = customerListApi.endpoints.listCustomers.useInfiniteQueryState(filters);
  const rememberedList = useSelector(selectCustomerList);
  // Decided once, as the screen opens: the list is put back as it was left only when it is the
  // same list and its pages are still cached. Any later change of filter starts afresh, even
  // back to this one.
  const [restore] = useState(() => (cachedList.data ? restorableListState(rememberedList, listKey) : null));
  const [restorableKey, setRestorableKey] = useState<string | null>(listKey);
  if (restorableKey !== null && restorableKey !== listKey) setRestorableKey(null);
  // Offline after the cache let the list go, the count is the last loaded list's.
  const total = cachedList.data?.pages.at(-1)?.total ?? lastLoadedListOf(rememberedList, listKey)?.total;

  const applyFilters = (next: TCustomerListFilters) =>
    navigate(appPaths.customerList.href({ ...filters, ...next }), { replace: true });

  // Debounce typing into the URL; a new search starts the list again.
  useEffect(() => {
    const search = searchText.trim();
    if (search === filters.search) return;
    const timer = window.setTimeout(() => {
      const next = { status: filters.status, retailerId: filters.retailerId, search };
      navigate(appPaths.customerList.href(next), { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [searchText, filters.search, filters.status, filters.retailerId, navigate]);

  // When the URL's search changes from outside (Back, a dashboard link), the box follows it.
  useEffect(() => {
    setSearchText((text) => (text.trim() === filters.search ? text : filters.search));
  }, [filters.search]);

  const handleOpen = (customer: TCustomerListItem) => {
    const target = openCustomerTarget(customer, orgConfig);
    if (target.kind === 'inactive-warning') {
      enqueueSnackbar(t('customers.inactiveWarning'), { variant: 'warning' });
      return;
    }
    navigate(target.href);
  };

  const clearFilters = () => {
    setSearchText('');
    navigate(appPaths.customerList.href(), { replace: true });
  };

  return (
    <>
      <PageHeader
        title={t('customers.title')}
        subtitle={total === undefined ? null : t('customers.count', { count: total })}
        action={
          <DownloadCsvButton
            fileName="customers.csv"
            fetchCsv={() => fetchCustomersCsv(filters).unwrap()}
            testId="customers-download-csv"
          />
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <TextField
          label={t('customers.searchLabel')}
          placeholder={t('customers.searchPlaceholder')}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          size="small"
          type="search"
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { 'data-testid': 'customer-search' },
          }}
        />
        <TextField
          select
          label={t('customers.statusLabel')}
          value={filters.status}
          onChange={(event) => applyFilters({ status: event.target.value as TCustomerListArgs['status'] })}
          size="small"
          sx={{ minWidth: { sm: 220 } }}
          slotProps={{ htmlInput: { 'data-testid': 'customer-status-filter' } }}
        >
          <MenuItem value={STATUS_FILTER_ALL}>{t('customers.statusAll')}</MenuItem>
          {CUSTOMER_STATUS_WORDS.map((word) => (
            <MenuItem key={word} value={word}>
              {t(`customerStatus.${word}`)}
            </MenuItem>
          ))}
        </TextField>
        {shopOptions ? (
          <ShopPicker
            options={shopOptions}
            value={filters.retailerId}
            onChange={(retailerId) => applyFilters({ retailerId })}
          />
        ) : null}
      </Stack>
      <CustomerResults
        key={listKey}
        filters={filters}
        restore={restorableKey === listKey ? restore : null}
        onOpen={handleOpen}
        onClearFilters={clearFilters}
      />
    </>
  );
};
