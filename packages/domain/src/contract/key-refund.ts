import { ZLedgerMovement, ZRefundKeyRequest } from '../ledger/ledger.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/** The key-refund routes of the wire contract (contract/define.ts). */
export const keyRefundContract = defineRoutes({
  /**
   * Give back the key an enrolment QR reserved, for the signed-in user's customer whose phone never
   * enrolled (the QR stops working).
   */
  refundKey: {
    method: 'POST',
    path: paths.ledger.refundKey,
    body: ZRefundKeyRequest,
    response: ZLedgerMovement,
  },
});
