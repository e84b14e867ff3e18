import type { TCustomerStatusWord } from '@kisht/domain/common/enums';
import { CUSTOMER_STATUS_WORDS, STATUS_FILTER_ALL } from '@kisht/domain/common/enums';
import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { TCustomerListFilters } from '../../../app/paths';
import { appPaths } from '../../../app/paths';
import { DownloadCsvButton } from '../../../components/download-csv-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useOrgConfig } from '../../../lib/http/org-config-api';
import { CustomerRow } from '../components/customer-row';
import type { TCustomerListArgs } from '../customers-api';
import { CUSTOMER_PAGE_SIZE, useLazyGetCustomersCsvQuery, useListCustomersQuery } from '../customers-api';
import { openCustomerTarget } from '../open-customer';

const SEARCH_DEBOUNCE_MS = 400;

const isStatusWord = (value: string | null): value is TCustomerStatusWord =>
  CUSTOMER_STATUS_WORDS.some((word) => word === value);

/** The list filters live in the URL, so the dashboard can link to them and Back restores them. */
const readFilters = (params: URLSearchParams): TCustomerListArgs => {
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    status: isStatusWord(status) ? status : STATUS_FILTER_ALL,
    search: params.get('search')?.trim() ?? '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
};

/**
 * Spec §2 customer_list: search, status filter, paging; opening a row follows the spec §2 rule.
 * "Download CSV" exports the list as filtered (search and status) to `customers.csv`.
 */
export const CustomerListPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgConfig = useOrgConfig();
  const [searchParams] = useSearchParams();
  const filters = readFilters(searchParams);
  const [searchText, setSearchText] = useState(filters.search);
  const [fetchCustomersCsv] = useLazyGetCustomersCsvQuery();
  const { data, isLoading, isFetching, isError, error, refetch } = useListCustomersQuery(filters, {
    refetchOnMountOrArgChange: true,
  });

  const applyFilters = (next: TCustomerListFilters) =>
    navigate(appPaths.customerList.href({ ...filters, ...next }), { replace: true });

  // Debounce typing into the URL; a new search starts again at page 1.
  useEffect(() => {
    const search = searchText.trim();
    if (search === filters.search) return;
    const timer = window.setTimeout(() => {
      navigate(appPaths.customerList.href({ status: filters.status, search, page: 1 }), { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [searchText, filters.search, filters.status, navigate]);

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

  const isFiltered = filters.search !== '' || filters.status !== STATUS_FILTER_ALL;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / CUSTOMER_PAGE_SIZE)) : 1;

  const renderBody = () => {
    if (isLoading) return <PageSkeleton />;
    if (isError || !data) return <LoadError message={error?.message} onRetry={refetch} />;
    if (data.items.length === 0) {
      return (
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 5 }}>
            <Typography color="textSecondary" sx={{ mb: 2 }}>
              {isFiltered ? t('customers.emptyFiltered') : t('customers.empty')}
            </Typography>
            {isFiltered ? (
              <Button
                onClick={() => {
                  setSearchText('');
                  navigate(appPaths.customerList.href(), { replace: true });
                }}
              >
                {t('customers.clearFilters')}
              </Button>
            ) : (
              <Button variant="contained" onClick={() => navigate(appPaths.addCustomer.href())}>
                {t('nav.addCustomer')}
              </Button>
            )}
          </CardContent>
        </Card>
      );
    }
    return (
      <>
        <Card sx={{ opacity: isFetching ? 0.6 : 1, transition: 'opacity 150ms' }}>
          <List disablePadding data-testid="customer-list">
            {data.items.map((customer) => (
              <CustomerRow key={customer.id} customer={customer} onOpen={handleOpen} />
            ))}
          </List>
        </Card>
        {pageCount > 1 ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
            <Pagination
              count={pageCount}
              page={Math.min(filters.page, pageCount)}
              onChange={(_event, page) => applyFilters({ page })}
              color="primary"
              shape="rounded"
            />
          </Box>
        ) : null}
      </>
    );
  };

  return (
    <>
      <PageHeader
        title={t('customers.title')}
        subtitle={data ? t('customers.count', { count: data.total }) : null}
        action={
          <DownloadCsvButton
            fileName="customers.csv"
            fetchCsv={() => fetchCustomersCsv({ search: filters.search, status: filters.status }).unwrap()}
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
          onChange={(event) =>
            applyFilters({ status: event.target.value as TCustomerListArgs['status'], page: 1 })
          }
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
      </Stack>
      {renderBody()}
    </>
  );
};
