import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { webhooksContract } from '@kisht/domain/contract/webhooks';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TList = (typeof webhooksContract)['list'];
type TCreate = (typeof webhooksContract)['create'];
type TRemove = (typeof webhooksContract)['remove'];
type TRotate = (typeof webhooksContract)['rotate'];
type TEnable = (typeof webhooksContract)['enable'];
type TDeliveries = (typeof webhooksContract)['deliveries'];
type TResend = (typeof webhooksContract)['resend'];

/** The organisation's endpoint list (one per organisation: the session's admin). */
const ENDPOINTS_TAG = { type: 'WebhookEndpoints', id: 'LIST' } as const;
/** One endpoint's delivery log (id: endpoint id). */
const deliveriesTag = (endpointId: number) => ({ type: 'WebhookDeliveries', id: endpointId }) as const;

/**
 * Outbound webhooks (issue 30): the organisation admin's receivers of signed events, their
 * signing secrets (answered only by create and rotate) and their delivery logs. Tags: the list
 * ('WebhookEndpoints', 'LIST') and each endpoint's log ('WebhookDeliveries', endpoint id).
 */
export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The organisation's endpoints, newest first (never their secrets). */
    listWebhookEndpoints: build.query<TContractData<TList>, void>({
      query: () => contractRequest<TList>({ path: paths.webhooks.endpoints, method: 'GET' }),
      providesTags: [ENDPOINTS_TAG],
    }),
    /** Adds an endpoint; answers it with its signing secret, which is never answered again. */
    createWebhookEndpoint: build.mutation<TContractData<TCreate>, TContractBody<TCreate>>({
      query: (body) => contractRequest<TCreate>({ path: paths.webhooks.endpoints, method: 'POST' }, { body }),
      invalidatesTags: (result) => (result ? [ENDPOINTS_TAG] : []),
    }),
    /** Removes an endpoint (by id): nothing more is sent to it. */
    removeWebhookEndpoint: build.mutation<TContractData<TRemove>, number>({
      query: (id) =>
        contractRequest<TRemove>(
          { path: paths.webhooks.endpoints, method: 'DELETE' },
          { params: { endpoint_id: id } },
        ),
      invalidatesTags: (_result, _error, id) => [ENDPOINTS_TAG, deliveriesTag(id)],
    }),
    /** A new signing secret for the endpoint, shown this once (the previous one signs for 24 h more). */
    rotateWebhookSecret: build.mutation<TContractData<TRotate>, TContractBody<TRotate>>({
      query: (body) => contractRequest<TRotate>({ path: paths.webhooks.rotate, method: 'POST' }, { body }),
      invalidatesTags: (result) => (result ? [ENDPOINTS_TAG] : []),
    }),
    /** Enables a disabled endpoint again; what waited for it is sent, so its log changes too. */
    enableWebhookEndpoint: build.mutation<TContractData<TEnable>, TContractBody<TEnable>>({
      query: (body) => contractRequest<TEnable>({ path: paths.webhooks.enable, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, body) => [ENDPOINTS_TAG, deliveriesTag(body.endpoint_id)],
    }),
    /** The endpoint's newest 50 messages and how each was delivered (by endpoint id). */
    listWebhookDeliveries: build.query<TContractData<TDeliveries>, number>({
      query: (endpointId) =>
        contractRequest<TDeliveries>(
          { path: paths.webhooks.deliveries, method: 'GET' },
          { params: { endpoint_id: endpointId } },
        ),
      providesTags: (_result, _error, endpointId) => [deliveriesTag(endpointId)],
    }),
    /**
     * Sends a message again now. The body names only the message, so `endpointId` (not sent) says
     * whose log to fetch again.
     */
    resendWebhook: build.mutation<TContractData<TResend>, TContractBody<TResend> & { endpointId: number }>({
      query: ({ endpointId: _endpointId, ...body }) =>
        contractRequest<TResend>({ path: paths.webhooks.resend, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { endpointId }) => [deliveriesTag(endpointId)],
    }),
  }),
});

export const {
  useListWebhookEndpointsQuery,
  useCreateWebhookEndpointMutation,
  useRemoveWebhookEndpointMutation,
  useRotateWebhookSecretMutation,
  useEnableWebhookEndpointMutation,
  useListWebhookDeliveriesQuery,
  useResendWebhookMutation,
} = webhooksApi;
