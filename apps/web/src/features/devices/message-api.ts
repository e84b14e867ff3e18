import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import type { TSendCustomerMessageRequest } from '@kisht/domain/messages/messages.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { commandHistoryTag, customerTag, PENDING_COMMANDS_TAG } from '../../lib/http/tags';

/** A text message to a customer's phone (send_fcm_retailer_to_customer, issue 16). */
export const messageApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Queues a show_message to the phone; the command joins its history like every other. */
    sendCustomerMessage: build.mutation<TDeviceCommand, TSendCustomerMessageRequest>({
      query: (body) => ({ url: paths.messages.send, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        commandHistoryTag(customer_id),
        PENDING_COMMANDS_TAG,
      ],
    }),
  }),
});

export const { useSendCustomerMessageMutation } = messageApi;
