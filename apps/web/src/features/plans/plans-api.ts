import type { TProduct } from '@kisht/domain/catalogue/catalogue.schema';
import { paths } from '@kisht/domain/paths';
import type {
  TPlan,
  TPlanActivation,
  TSellPlanRequest,
  TSellPlanResponseItem,
} from '@kisht/domain/plans/plans.schema';
import { api, PLANS_CACHE_SECONDS } from '../../lib/http/api';

/** Which plans a plan screen sells: anti-hacking (tiers 8, 12, 13) or family care (7). */
export type TPlanKind = 'antihacking' | 'familycare';

/** A plan sold: its activation code (spec §3 data[0].antihacking_code), the activation and the server's message. */
export type TPlanSale = { code: string; activation: TPlanActivation | null; message: string };

/** What GET activations is asked: some app_types (`'8,12,13'`) or one customer's plans. */
export type TActivationsFilter = { appTypes: string } | { customerId: number };

/**
 * Protection plans on the web (issue 14): the plans a screen offers, a sale, and the plans sold.
 * Spec §7: plans are cached 5 s (PLANS_CACHE_SECONDS), so a changed catalogue shows up soon; the
 * lists of plans sold likewise, and are read again when a screen opens. The cache key of each list
 * is its whole filter.
 */
export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The active plans of a kind (spec §7 get_plans_antihacking / get_plans_familycare). */
    getSellablePlans: build.query<TPlan[], TPlanKind>({
      query: (kind) => (kind === 'antihacking' ? paths.plans.antihacking : paths.plans.familycare),
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
    /** The organisation's products, to name the one a plan screen was opened for (`product_id`). */
    getPlanProducts: build.query<TProduct[], void>({
      query: () => paths.catalogue.products,
    }),
    /**
     * Sells a plan (spec §3 "add anti-hacking customer"): the answer's data[0].antihacking_code
     * is the activation code; the server's message comes with it (`message`).
     */
    sellPlan: build.mutation<TPlanSale, TSellPlanRequest>({
      query: (body) => ({
        url: paths.plans.sell,
        method: 'POST',
        body,
        responseHandler: keepEnvelopeMessage,
      }),
      transformResponse: ({ items, message }: { items: TSellPlanResponseItem[]; message: string }) => ({
        code: items[0]?.antihacking_code ?? '',
        activation: items[0]?.activation ?? null,
        message,
      }),
      // The new sale joins every cached list of plans sold it belongs to, at the top.
      onQueryStarted: async (_request, { dispatch, getState, queryFulfilled }) => {
        const sale = await queryFulfilled.then(({ data }) => data.activation).catch(() => null);
        if (!sale) return;
        for (const filter of plansApi.util.selectCachedArgsForQuery(getState(), 'listActivations')) {
          if (!isInList(sale, filter)) continue;
          dispatch(
            plansApi.util.updateQueryData('listActivations', filter, (draft) => {
              if (!draft.some((activation) => activation.id === sale.id)) draft.unshift(sale);
            }),
          );
        }
      },
    }),
    /** Plans sold, newest first: of some app_types, or one customer's. */
    listActivations: build.query<TPlanActivation[], TActivationsFilter>({
      query: (filter) => ({
        url: paths.plans.activations,
        params: 'customerId' in filter ? { customer_id: filter.customerId } : { app_type: filter.appTypes },
      }),
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
  }),
});

/** Whether a list of plans sold (its filter) shows an activation. */
const isInList = (activation: TPlanActivation, filter: TActivationsFilter): boolean =>
  'customerId' in filter
    ? activation.customerId === filter.customerId
    : filter.appTypes.split(',').map(Number).includes(activation.appType);

/**
 * Parses the sale's answer so that its success message survives the base query, which unwraps a
 * success envelope to its `data`: that data becomes `{ items, message }`. A failure is left as it
 * came, for the base query's error handling.
 */
const keepEnvelopeMessage = async (response: Response): Promise<unknown> => {
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== 'object' || body === null || (body as { response?: unknown }).response !== 'success')
    return body;
  const envelope = body as { message?: unknown; data?: unknown };
  return {
    ...envelope,
    data: { items: envelope.data, message: typeof envelope.message === 'string' ? envelope.message : '' },
  };
};

export const {
  useGetSellablePlansQuery,
  useGetPlanProductsQuery,
  useSellPlanMutation,
  useListActivationsQuery,
} = plansApi;
