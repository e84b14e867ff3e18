import type { TCheckoutOrder, TCheckoutResult } from '@kisht/domain/payments/payments.schema';

/**
 * The gateway's browser checkout (Razorpay Checkout model): a script defining `window.Razorpay`;
 * `new Razorpay(options).open()` shows the payment sheet, calls `options.handler` with the signed
 * result on success, emits 'payment.failed' on a failed attempt and calls `modal.ondismiss` when
 * the person closes it.
 */
export type TRazorpayOptions = {
  key: string;
  order_id: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  prefill: { name: string; contact: string };
  handler: (result: TCheckoutResult) => void;
  modal: { ondismiss: () => void };
};
export type TRazorpayCheckout = {
  open: () => void;
  on: (event: 'payment.failed', handler: (failure: { error?: { description?: string } }) => void) => void;
};
type TRazorpayConstructor = new (options: TRazorpayOptions) => TRazorpayCheckout;

declare global {
  interface Window {
    Razorpay?: TRazorpayConstructor;
  }
}

/** How a checkout ended: paid (with the signed result), failed (the gateway's reason) or closed. */
export type TCheckoutOutcome =
  | { kind: 'paid'; result: TCheckoutResult }
  | { kind: 'failed'; reason: string | null }
  | { kind: 'dismissed' };

const loading = new Map<string, Promise<void>>();

/**
 * Loads the checkout script once per URL (later calls share the first load); rejects when it
 * cannot be loaded, and forgets the failure so a retry loads it again.
 */
export const loadCheckoutScript = (url: string): Promise<void> => {
  if (window.Razorpay) return Promise.resolve();
  let promise = loading.get(url);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loading.delete(url);
        script.remove();
        reject(new Error('checkout script failed to load'));
      };
      document.head.appendChild(script);
    });
    loading.set(url, promise);
  }
  return promise;
};

/** Opens the checkout for a gateway order and resolves with how it ended. */
export const openCheckout = async (order: TCheckoutOrder): Promise<TCheckoutOutcome> => {
  await loadCheckoutScript(order.checkoutScriptUrl);
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error('checkout script did not define Razorpay');
  return new Promise<TCheckoutOutcome>((resolve) => {
    const checkout = new Razorpay({
      key: order.keyId,
      order_id: order.gatewayOrderId,
      amount: order.amountPaise,
      currency: order.currency,
      name: order.name,
      description: order.description,
      prefill: order.prefill,
      handler: (result) => resolve({ kind: 'paid', result }),
      modal: { ondismiss: () => resolve({ kind: 'dismissed' }) },
    });
    checkout.on('payment.failed', (failure) =>
      resolve({ kind: 'failed', reason: failure.error?.description ?? null }),
    );
    checkout.open();
  });
};
