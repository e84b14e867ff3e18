import type { TRetailerListItem, TRetailerStatusFilter } from '@kisht/domain/retailers/retailers.schema';
import { RETAILER_STATUS_FILTERS } from '@kisht/domain/retailers/retailers.schema';
import AddIcon from '@mui/icons-material/Add';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { getUserType } from '../../../lib/auth-storage';
import { formatMobile } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { appPaths } from '../../../lib/paths';
import { useListRetailersInfiniteQuery } from '../retailers-api';

const SEARCH_DEBOUNCE_MS = 300;

const RetailerRow = ({ retailer, onOpen }: { retailer: TRetailerListItem; onOpen: () => void }) => {
  const { t } = useTranslation();
  return (
    <ListItemButton onClick={onOpen} divider data-testid={`retailer-row-${retailer.id}`}>
      <ListItemAvatar>
        <Avatar>{retailer.name.slice(0, 1).toUpperCase()}</Avatar>
      </ListItemAvatar>
      <ListItemText
        primary={retailer.name}
        secondary={`${retailer.shopName ?? ''} · ${formatMobile(retailer.mobile)}`}
        slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
      />
      <Stack spacing={0.5} sx={{ alignItems: 'flex-end', ml: 1, flexShrink: 0 }}>
        <Chip
          size="small"
          color={retailer.isActive ? 'success' : 'default'}
          label={retailer.isActive ? t('retailers.active') : t('retailers.inactive')}
        />
        <Typography variant="caption" color="textSecondary">
          {t('retailers.customerCount', { count: retailer.customerCount })}
        </Typography>
      </Stack>
    </ListItemButton>
  );
};

/**
 * retailer_list: the signed-in retailer's mini-retailers, newest first, searchable by name, shop or
 * mobile and filtered by status, loading more as the person scrolls to the end (infinite scroll);
 * each row shows name, shop, mobile, an active chip and the customer count and opens
 * retailer_profile. A button adds one. Retailers only: a mini-retailer is sent to the dashboard.
 */
export const RetailerListPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<TRetailerStatusFilter>('all');
  const isRetailer = getUserType() === 'retailer';
  const list = useListRetailersInfiniteQuery({ search, status }, { skip: !isRetailer });
  const sentinel = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchText.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && hasNextPage && !isFetchingNextPage)
        void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (!isRetailer) return <Navigate to={appPaths.dashboard.href()} replace />;

  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const isFiltered = search !== '' || status !== 'all';

  let body: ReactNode;
  if (list.isLoading) body = <PageSkeleton />;
  else if (list.isError && items.length === 0)
    body = (
      <LoadError
        message={isApiError(list.error) ? list.error.message : undefined}
        onRetry={() => void list.refetch()}
      />
    );
  else if (items.length === 0)
    body = (
      <Typography color="textSecondary" sx={{ py: 4, textAlign: 'center' }} data-testid="retailer-list-empty">
        {isFiltered ? t('retailers.emptyFiltered') : t('retailers.empty')}
      </Typography>
    );
  else
    body = (
      <Card>
        <List disablePadding data-testid="retailer-list">
          {items.map((retailer) => (
            <RetailerRow
              key={retailer.id}
              retailer={retailer}
              onOpen={() => navigate(appPaths.retailerProfile.href(retailer.id))}
            />
          ))}
        </List>
        <div ref={sentinel} />
        {hasNextPage ? (
          <Box sx={{ p: 1, textAlign: 'center' }}>
            <Button
              onClick={() => void fetchNextPage()}
              disabled={isFetchingNextPage}
              data-testid="retailer-load-more"
            >
              {t('retailers.loadMore')}
            </Button>
          </Box>
        ) : null}
      </Card>
    );

  return (
    <Box>
      <PageHeader
        title={t('pages.retailer_list')}
        subtitle={list.data ? t('retailers.total', { count: total }) : undefined}
        action={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => navigate(appPaths.addRetailer.href())}
            sx={{ flexShrink: 0 }}
            data-testid="add-retailer-button"
          >
            {t('retailers.add')}
          </Button>
        }
      />
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        <TextField
          label={t('retailers.searchLabel')}
          placeholder={t('retailers.searchPlaceholder')}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          type="search"
          size="small"
          sx={{ flex: 1, minWidth: 0 }}
          slotProps={{ htmlInput: { 'data-testid': 'retailer-search' } }}
        />
        <TextField
          select
          label={t('retailers.statusLabel')}
          value={status}
          onChange={(event) => setStatus(event.target.value as TRetailerStatusFilter)}
          size="small"
          sx={{ width: 128, flexShrink: 0 }}
          slotProps={{ htmlInput: { 'data-testid': 'retailer-status-filter' } }}
        >
          {RETAILER_STATUS_FILTERS.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`retailers.status.${value}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {body}
    </Box>
  );
};
