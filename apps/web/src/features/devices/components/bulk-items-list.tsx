import type { TBulkProgress } from '@kisht/domain/devices/devices.schema';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { CommandStateChip } from './command-state-chip';

/** A row's height before it is measured, px (name, and an error line when it failed). */
const ITEM_ESTIMATE_PX = 56;
/** Rows rendered beyond each edge of the screen. */
const OVERSCAN_ROWS = 8;

type TBulkItem = TBulkProgress['items'][number];

/**
 * Each phone of a bulk request with its command's state, as a window-scrolled list that renders
 * only the rows on screen (a request can reach thousands of phones).
 */
export const BulkItemsList = ({ items }: { items: TBulkItem[] }) => {
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts in the page: the virtualizer works in window offsets.
  const [scrollMargin, setScrollMargin] = useState(0);
  const getItemKey = useCallback((index: number) => items[index]?.commandId ?? index, [items]);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ITEM_ESTIMATE_PX,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    getItemKey,
  });

  // What is above the list (counts, skipped customers) changes height as the request runs.
  useLayoutEffect(() => {
    const top = listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0;
    if (top !== scrollMargin) setScrollMargin(top);
  });

  const rows = virtualizer.getVirtualItems();
  const offsetTop = (rows[0]?.start ?? scrollMargin) - scrollMargin;
  return (
    <Card ref={listRef}>
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <List
          disablePadding
          data-testid="bulk-items"
          sx={{
            position: 'absolute',
            top: 0,
            left: 0,
            width: '100%',
            transform: `translateY(${offsetTop}px)`,
          }}
        >
          {rows.map((row) => {
            const item = items[row.index];
            if (!item) return null;
            return (
              <ListItem
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                divider
                data-testid={`bulk-item-${item.customerId}`}
                secondaryAction={
                  <CommandStateChip state={item.state} testId={`bulk-item-state-${item.customerId}`} />
                }
              >
                <ListItemText
                  primary={item.customerName}
                  secondary={item.error}
                  slotProps={{ secondary: { color: 'error' } }}
                />
              </ListItem>
            );
          })}
        </List>
      </Box>
    </Card>
  );
};
