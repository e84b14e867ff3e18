import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { messagesContract } from '@kisht/domain/contract/messages';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';
import { commandHistoryTag, customerTag, PENDING_COMMANDS_TAG } from '../../lib/http/tags';

type TSendMessage = (typeof messagesContract)['send'];

/** A text message to a customer's phone (send_fcm_retailer_to_customer, issue 16). */
export const messageApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Queues a show_message to the phone; the command joins its history like every other. */
    sendCustomerMessage: build.mutation<TContractData<TSendMessage>, TContractBody<TSendMessage>>({
      query: (body) => contractRequest<TSendMessage>({ path: paths.messages.send, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        PENDING_COMMANDS_TAG,
      ],
    }),
  }),
});

export const { useSendCustomerMessageMutation } = messageApi;
