import type { TCheckoutOrder, TPaymentOrderStatus } from '@kisht/domain/payments/payments.schema';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TApiError } from '../../lib/http/base-query';
import { isApiError } from '../../lib/http/base-query';
import { openCheckout } from './checkout';
import { useVerifyPaymentMutation } from './payments-api';

/** Where one online payment is: not started, under way, paid, failed (why), or closed by the payer. */
export type TGatewayPaymentState =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'paid'; status: TPaymentOrderStatus }
  | { kind: 'failed'; message: string; error: TApiError | null }
  | { kind: 'dismissed' };

/**
 * One online payment through the gateway: create the order (`createOrder`, a mutation trigger),
 * open the checkout, and send its signed result to the server, which credits or records it once.
 */
export const useGatewayPayment = () => {
  const { t } = useTranslation();
  const [verify] = useVerifyPaymentMutation();
  const [state, setState] = useState<TGatewayPaymentState>({ kind: 'idle' });

  const fail = (error: unknown) => {
    const apiError = isApiError(error) ? error : null;
    setState({ kind: 'failed', message: apiError?.message ?? t('payments.failed'), error: apiError });
  };

  const pay = async (createOrder: () => Promise<{ data?: TCheckoutOrder; error?: unknown }>) => {
    setState({ kind: 'working' });
    const order = await createOrder();
    if (!order.data) return fail(order.error);
    let outcome: Awaited<ReturnType<typeof openCheckout>>;
    try {
      outcome = await openCheckout(order.data);
    } catch {
      return setState({ kind: 'failed', message: t('payments.checkoutUnavailable'), error: null });
    }
    if (outcome.kind === 'dismissed') return setState({ kind: 'dismissed' });
    if (outcome.kind === 'failed')
      return setState({ kind: 'failed', message: outcome.reason ?? t('payments.failed'), error: null });
    const verified = await verify(outcome.result);
    if (!verified.data) return fail(verified.error);
    setState({ kind: 'paid', status: verified.data });
  };

  return { state, pay, reset: () => setState({ kind: 'idle' }) };
};
