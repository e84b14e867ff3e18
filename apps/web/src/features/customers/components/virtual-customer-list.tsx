import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { Ref } from 'react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import type { TCustomerListState } from '../customer-list-slice';
import { customerListLeft } from '../customer-list-slice';
import { CustomerRow } from './customer-row';

/** A row's height before it is measured, px (a customer row is about this tall on a phone). */
export const CUSTOMER_ROW_ESTIMATE_PX = 143;
/** Rows rendered beyond each edge of the screen, so a short scroll never shows a gap. */
const OVERSCAN_ROWS = 5;
/** The key of the "loading more" row that closes the list while more pages exist. */
const MORE_ROW_KEY = 'more';

type TMoreRowProps = {
  index: number;
  ref: Ref<HTMLLIElement>;
  hasFailed: boolean;
  onRetry: () => void;
};

/** The last row while more pages exist: a spinner while the next page loads, or a retry. */
const MoreRow = ({ index, ref, hasFailed, onRetry }: TMoreRowProps) => {
  const { t } = useTranslation();
  return (
    <ListItem
      ref={ref}
      data-index={index}
      data-testid="customer-list-more"
      sx={{ justifyContent: 'center', gap: 1.5, py: 2 }}
    >
      {hasFailed ? (
        <>
          <Typography variant="body2" color="textSecondary">
            {t('customers.loadMoreFailed')}
          </Typography>
          <Button size="small" onClick={onRetry} data-testid="customer-list-retry">
            {t('common.retry')}
          </Button>
        </>
      ) : (
        <CircularProgress size={24} aria-label={t('customers.loadingMore')} />
      )}
    </ListItem>
  );
};

type TVirtualCustomerListProps = {
  /** customerListKey of the list shown; the position is remembered under it when the list goes. */
  listKey: string;
  customers: TCustomerListItem[];
  /** Where to put the list back (when it was left before and its pages are still cached). */
  restore: Pick<TCustomerListState, 'scrollPosition' | 'measuredRows'> | null;
  hasNextPage: boolean;
  /** Any fetch of this list is running (next page or refresh); no second next-page load starts. */
  isFetching: boolean;
  /** Shown dimmed while the whole list refreshes. */
  isRefreshing: boolean;
  hasNextPageFailed: boolean;
  onLoadMore: () => void;
  onOpen: (customer: TCustomerListItem) => void;
};

/**
 * The customers as a window-scrolled list that renders only the rows on screen (plus a few either
 * side), with @tanstack/react-virtual. When its end (the "loading more" row) comes into the
 * rendered range, it asks for the next page. When it goes (a customer opened, another screen, a
 * new filter) it remembers its scroll offset and measured row sizes (customerListLeft) and hands
 * the window back at the top; a `restore` puts both back, so coming back lands on the same row.
 */
export const VirtualCustomerList = ({
  listKey,
  customers,
  restore,
  hasNextPage,
  isFetching,
  isRefreshing,
  hasNextPageFailed,
  onLoadMore,
  onOpen,
}: TVirtualCustomerListProps) => {
  const dispatch = useDispatch();
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts in the page: the virtualizer works in window offsets.
  const [scrollMargin, setScrollMargin] = useState(0);
  const getItemKey = useCallback((index: number) => customers[index]?.id ?? MORE_ROW_KEY, [customers]);
  const virtualizer = useWindowVirtualizer({
    count: customers.length + (hasNextPage ? 1 : 0),
    estimateSize: () => CUSTOMER_ROW_ESTIMATE_PX,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    getItemKey,
    initialOffset: restore?.scrollPosition ?? 0,
    initialMeasurementsCache: restore?.measuredRows ?? [],
  });

  // The header and filters above the list can change height (the count appears, a resize).
  useLayoutEffect(() => {
    const top = listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0;
    if (top !== scrollMargin) setScrollMargin(top);
  });

  // Remember where this list was left, for when it is shown again; the next screen starts at the
  // top rather than deep down where the list was.
  useEffect(
    () => () => {
      dispatch(
        customerListLeft({
          listKey,
          scrollPosition: virtualizer.scrollOffset ?? 0,
          measuredRows: virtualizer.takeSnapshot(),
        }),
      );
      window.scrollTo({ top: 0 });
    },
    [dispatch, listKey, virtualizer],
  );

  const rows = virtualizer.getVirtualItems();
  const isEndInView = hasNextPage && (rows.at(-1)?.index ?? -1) >= customers.length;
  useEffect(() => {
    if (isEndInView && !isFetching && !hasNextPageFailed) onLoadMore();
  }, [isEndInView, isFetching, hasNextPageFailed, onLoadMore]);

  const offsetTop = (rows[0]?.start ?? scrollMargin) - scrollMargin;
  return (
    <Card ref={listRef} sx={{ opacity: isRefreshing ? 0.6 : 1, transition: 'opacity 150ms' }}>
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <List
          disablePadding
          data-testid="customer-list"
          sx={{
            position: 'absolute',
            top: 0,
            left: 0,
            width: '100%',
            transform: `translateY(${offsetTop}px)`,
          }}
        >
          {rows.map((row) => {
            const customer = customers[row.index];
            return customer ? (
              <CustomerRow
                key={row.key}
                index={row.index}
                ref={virtualizer.measureElement}
                customer={customer}
                onOpen={onOpen}
              />
            ) : (
              <MoreRow
                key={row.key}
                index={row.index}
                ref={virtualizer.measureElement}
                hasFailed={hasNextPageFailed}
                onRetry={onLoadMore}
              />
            );
          })}
        </List>
      </Box>
    </Card>
  );
};
