import type { TContractBody, TContractData } from '@kisht/domain/contract/define';
import type { remindersContract } from '@kisht/domain/contract/reminders';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractRequest } from '../../lib/http/contract-request';

type TGetSettings = (typeof remindersContract)['getSettings'];
type TSaveSettings = (typeof remindersContract)['saveSettings'];
type TOfCustomer = (typeof remindersContract)['ofCustomer'];
type TOptOut = (typeof remindersContract)['whatsappOptOut'];

const SETTINGS_TAG = { type: 'Reminder', id: 'SETTINGS' } as const;
const customerTag = (customerId: number) => ({ type: 'Reminder', id: customerId }) as const;

/** Payment reminders (issue 29): the organisation's schedule, and a customer's reminders and WhatsApp choice. */
export const remindersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The organisation's reminder schedule, null for none. */
    getReminderSettings: build.query<TContractData<TGetSettings>, void>({
      query: () => contractRequest<TGetSettings>({ path: paths.reminders.settings, method: 'GET' }),
      providesTags: [SETTINGS_TAG],
    }),
    /** Replaces the schedule (the retailer); null stops reminders. */
    saveReminderSettings: build.mutation<TContractData<TSaveSettings>, TContractBody<TSaveSettings>>({
      query: (body) =>
        contractRequest<TSaveSettings>({ path: paths.reminders.settings, method: 'PUT' }, { body }),
      invalidatesTags: [SETTINGS_TAG],
    }),
    /** A customer's reminders, newest first, and whether they refused WhatsApp. */
    getCustomerReminders: build.query<TContractData<TOfCustomer>, number>({
      query: (customerId) =>
        contractRequest<TOfCustomer>(
          { path: paths.reminders.ofCustomer, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [customerTag(customerId)],
    }),
    /** The customer refuses (or accepts again) WhatsApp reminders. */
    setWhatsAppOptOut: build.mutation<TContractData<TOptOut>, TContractBody<TOptOut>>({
      query: (body) =>
        contractRequest<TOptOut>({ path: paths.reminders.whatsappOptOut, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, body) => [customerTag(body.customer_id)],
    }),
  }),
});

export const {
  useGetReminderSettingsQuery,
  useSaveReminderSettingsMutation,
  useGetCustomerRemindersQuery,
  useSetWhatsAppOptOutMutation,
} = remindersApi;
