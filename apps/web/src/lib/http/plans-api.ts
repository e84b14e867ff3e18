import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { plansContract } from '@kisht/domain/contract/plans';
import { paths } from '@kisht/domain/paths';
import { api, PLANS_CACHE_SECONDS } from './api';
import { contractRequest } from './contract-request';
import { KEY_BALANCES_TAG, PLAN_ACTIVATIONS_TAG, PLANS_TAG } from './tags';

type TList = (typeof plansContract)['list'];
type TSell = (typeof plansContract)['sell'];
type TActivations = (typeof plansContract)['activations'];

/**
 * What GET plans is asked (each is its own cached list): the plans of one app_type, those that
 * apply to one product, or ({}) all the organisation's plans (the admin's catalogue).
 */
export type TPlansFilter = { appType?: number; productId?: number };

/** What GET activations is asked: some app_types (`'8,12,13'`, `'4,9'`, `'5'`) or one customer's plans. */
export type TActivationsFilter = { appTypes: string } | { customerId: number };

/** A plan sold: data[0] of the answer (the activation code and the activation) and the server's message. */
export type TPlanSale = TContractData<TSell>[number] & { message: string };

/**
 * Protection plans (issue 14) that more than one feature reads: the plans list, a sale and the
 * plans sold (anti-hacking and family care, anti-theft, extended warranty, add_customer,
 * customer_details, the admin's catalogue). Spec §7: plans are cached 5 s (PLANS_CACHE_SECONDS), and
 * so are the lists of plans sold. The cache key of each list is its whole filter. A sale spends a
 * key of the plan's app_type, so it refetches the key balances and every list of plans sold, on
 * whichever screen it was made.
 */
export const plansApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET plans (?app_type=, ?product_id=): the plans of the filter. */
    listPlans: build.query<TContractData<TList>, TPlansFilter>({
      query: ({ appType, productId }) =>
        contractRequest<TList>(
          { path: paths.plans.list, method: 'GET' },
          {
            params: {
              ...(appType === undefined ? {} : { app_type: appType }),
              ...(productId === undefined ? {} : { product_id: productId }),
            },
          },
        ),
      providesTags: [PLANS_TAG],
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
    /**
     * Sells a plan (POST paths.plans.sell, spec §3 "add anti-hacking customer"): data[0].antihacking_code
     * is the activation code, data[0].activation the sale; the server's message comes with it.
     */
    sellPlan: build.mutation<TPlanSale, TContractBody<TSell>>({
      query: (body) => ({
        ...contractRequest<TSell>({ path: paths.plans.sell, method: 'POST' }, { body }),
        responseHandler: keepEnvelopeMessage,
      }),
      transformResponse: ({ items, message }: { items: TContractData<TSell>; message: string }) => ({
        ...items[0]!,
        message,
      }),
      invalidatesTags: (result) => (result ? [PLAN_ACTIVATIONS_TAG, KEY_BALANCES_TAG] : []),
    }),
    /** GET plans/activations: plans sold, newest first, of some app_types or one customer's. */
    listActivations: build.query<TContractData<TActivations>, TActivationsFilter>({
      query: (filter) =>
        contractRequest<TActivations>(
          { path: paths.plans.activations, method: 'GET' },
          {
            params:
              'customerId' in filter ? { customer_id: filter.customerId } : { app_type: filter.appTypes },
          },
        ),
      providesTags: [PLAN_ACTIVATIONS_TAG],
      keepUnusedDataFor: PLANS_CACHE_SECONDS,
    }),
  }),
});

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

export const { useListPlansQuery, useSellPlanMutation, useListActivationsQuery } = plansApi;
