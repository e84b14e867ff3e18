import { lockStatusLabel, STATUS_FILTER_ALL, statusWord } from '@kisht/domain/common/enums';
import { bulkExclusionReason } from '@kisht/domain/customers/customers.rules';
import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import SearchIcon from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMobile } from '../lib/format';
import { useListCustomersInfiniteQuery } from '../lib/http/customer-list-api';
import { LoadError } from './load-error';

const SEARCH_DEBOUNCE_MS = 400;

/** The customers chosen so far: id → name (kept across searches). */
export type TCustomerSelection = ReadonlyMap<number, string>;

type TBulkCustomerPickerProps = {
  selected: TCustomerSelection;
  onToggle: (customer: TCustomerListItem) => void;
  onClear: () => void;
};

/**
 * Choosing customers for a bulk lock or unlock: the customer list (its own API, with search),
 * page by page, each row ticked or not. The choice survives a new search. Customers a bulk
 * command leaves alone (uninstalled, Apple-removed, EMIs completed) are listed with their status
 * but cannot be ticked, so the count of chosen phones is the count the server sends to.
 */
export const BulkCustomerPicker = ({ selected, onToggle, onClear }: TBulkCustomerPickerProps) => {
  const { t } = useTranslation();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(searchText.trim()), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [searchText]);
  const list = useListCustomersInfiniteQuery({ search, status: STATUS_FILTER_ALL });
  const seen = new Set<number>();
  const customers = (list.data?.pages.flatMap((page) => page.items) ?? []).filter((customer) => {
    if (seen.has(customer.id)) return false;
    seen.add(customer.id);
    return true;
  });

  const renderRows = () => {
    if (list.isLoading) return <Skeleton variant="rounded" height={120} />;
    if (!list.data) return <LoadError message={list.error?.message} onRetry={list.refetch} />;
    if (customers.length === 0) {
      return (
        <Typography variant="body2" color="textSecondary" sx={{ p: 2 }}>
          {t('bulkLock.noCustomers')}
        </Typography>
      );
    }
    return (
      <List disablePadding data-testid="bulk-customer-list">
        {customers.map((customer) => {
          const name = `${customer.firstName} ${customer.lastName}`;
          const isExcluded = bulkExclusionReason(customer.status) !== null;
          const isChosen = !isExcluded && selected.has(customer.id);
          const labelId = `bulk-customer-label-${customer.id}`;
          const state = isExcluded
            ? t(`customerStatus.${statusWord(customer.status)}`)
            : t(`lockStatus.${lockStatusLabel(customer.lockStatus)}`);
          return (
            <ListItem key={customer.id} disablePadding divider>
              <ListItemButton
                onClick={isExcluded ? undefined : () => onToggle(customer)}
                disabled={isExcluded}
                data-testid={`bulk-customer-${customer.id}`}
              >
                <ListItemIcon sx={{ minWidth: 40 }}>
                  <Checkbox
                    edge="start"
                    checked={isChosen}
                    disabled={isExcluded}
                    tabIndex={-1}
                    disableRipple
                    slotProps={{ input: { 'aria-labelledby': labelId } }}
                  />
                </ListItemIcon>
                <ListItemText
                  id={labelId}
                  primary={name}
                  secondary={`${formatMobile(customer.mobile)} · ${state}`}
                />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    );
  };

  return (
    <Stack spacing={1.5}>
      <TextField
        label={t('bulkLock.searchLabel')}
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
          htmlInput: { 'data-testid': 'bulk-search' },
        }}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" sx={{ flex: 1 }} data-testid="bulk-selected-count" aria-live="polite">
          {t('bulkLock.selected', { count: selected.size })}
        </Typography>
        {selected.size > 0 ? (
          <Button size="small" onClick={onClear} data-testid="bulk-clear-selection">
            {t('bulkLock.clearSelection')}
          </Button>
        ) : null}
      </Stack>
      <Card variant="outlined">{renderRows()}</Card>
      {list.hasNextPage ? (
        <Button
          onClick={() => void list.fetchNextPage()}
          loading={list.isFetchingNextPage}
          data-testid="bulk-load-more"
        >
          {t('bulkLock.loadMore')}
        </Button>
      ) : null}
    </Stack>
  );
};
