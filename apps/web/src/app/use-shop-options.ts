import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TShopOption } from '../components/shop-picker';
import { useListRetailersInfiniteQuery } from '../features/retailers/retailers-api';
import { getUserId, getUserType } from '../lib/auth-storage';

/** The whole network, whatever its status: a deactivated mini-retailer's customers still count. */
const ALL_MINI_RETAILERS = { search: '', status: 'all' } as const;

/**
 * The shops a signed-in retailer can narrow customer_list and the dashboard to: "My shop" then
 * each mini-retailer by shop name (name when it has none), from the retailers feature's
 * retailer_list query (every page, so the cache is shared with that screen). Undefined, and
 * nothing is fetched, for anyone but a retailer; undefined too while loading and for a retailer
 * without mini-retailers: the picker shows only when there is a choice to make.
 */
export const useShopOptions = (): TShopOption[] | undefined => {
  const { t } = useTranslation();
  const isRetailer = getUserType() === 'retailer';
  const list = useListRetailersInfiniteQuery(ALL_MINI_RETAILERS, { skip: !isRetailer });
  const { hasNextPage, isFetching, fetchNextPage } = list;

  // The picker needs every mini-retailer, not the first page only.
  useEffect(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);

  if (!isRetailer || !list.data) return undefined;
  const miniRetailers = list.data.pages.flatMap((page) => page.items);
  if (miniRetailers.length === 0) return undefined;
  const ownId = getUserId();
  return [
    ...(ownId === null ? [] : [{ id: ownId, label: t('shopFilter.myShop') }]),
    ...miniRetailers.map((retailer) => ({ id: retailer.id, label: retailer.shopName || retailer.name })),
  ];
};
