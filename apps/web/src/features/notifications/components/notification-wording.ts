import { APP_TYPE_KEYS } from '@kisht/domain/ledger/ledger.rules';
import type { TNotification } from '@kisht/domain/notifications/notifications.schema';
import type { ParseKeys, TFunction } from 'i18next';
import { formatDate, formatDateTime, formatRupees } from '../../../lib/format';

const text = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);
const num = (value: string | number | null | undefined): number => (typeof value === 'number' ? value : 0);

/**
 * A notification's title and sentence in the reader's language (`notifications.kinds.<kind>`),
 * from its params: amounts as rupees (paise → `₹1,000.00`), dates `DD-MM-YYYY` and instants
 * `DD-MM-YYYY hh:mm A` (+05:30), the app type by its translated name, a webhook endpoint by its
 * URL. A customer reads the customer-facing kinds (payment received, plan expiring) about
 * themselves (`textForCustomer`).
 */
export const notificationWording = (
  t: TFunction,
  notification: Pick<TNotification, 'kind' | 'params' | 'customerName'>,
  isCustomerReader: boolean,
): { title: string; text: string } => {
  const { kind, params } = notification;
  const customerName = text(params.customerName) || notification.customerName || '';
  const forCustomer = isCustomerReader && (kind === 'payment_received' || kind === 'plan_expiring');
  const appTypeKey = APP_TYPE_KEYS[num(params.appType) as keyof typeof APP_TYPE_KEYS];
  const values = {
    customerName,
    operator: text(params.operator) || t('notifications.noSim'),
    days: num(params.days),
    lastSeen: formatDateTime(text(params.lastSeenAt)),
    reason: text(params.reason),
    amount: formatRupees(num(params.amountPaise)),
    receiptNo: text(params.receiptNo),
    planName: text(params.planName),
    endsOn: formatDate(text(params.endsOn)),
    balance: num(params.balance),
    appType: appTypeKey ? t(`appType.${appTypeKey}` as ParseKeys) : text(params.appType),
    url: text(params.url),
  };
  return {
    title: t(`notifications.kinds.${kind}.title`),
    text: forCustomer
      ? t(`notifications.kinds.${kind as 'payment_received' | 'plan_expiring'}.textForCustomer`, values)
      : t(`notifications.kinds.${kind}.text`, values),
  };
};
