import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { getCustomerRecord } from '../customers/customers.service';
import { getDeviceSummaryForActor } from '../devices/devices.service';
import { findCustomerForActor } from '../scope/scope.service';

/**
 * Everything customer_details shows (spec §2): the customer, loan and schedule (customers) and the
 * phone's state, pending commands and what the actor may do with it (devices), read side by side
 * once the actor's scope found the customer. Composed here, above both modules, so neither imports
 * the other (issue 25). An actor whose lock access `read` is '0' still gets the customer, with the
 * lock status and command information null (see ZCustomerDetails). The device carries
 * `pushRefusal` (issue 27): why wake-ups to the phone stopped, until it registers a new push token.
 * Throws CUSTOMER_NOT_FOUND outside the actor's scope.
 */
export const getCustomerDetails = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TCustomerDetails> => {
  const found = await findCustomerForActor(db, actor, customerId);
  const [record, device] = await Promise.all([
    getCustomerRecord(db, actor, found),
    getDeviceSummaryForActor(db, actor, {
      deviceType: found.customer.deviceType,
      appType: found.customer.appType,
      device: found.device,
    }),
  ]);
  // The refusal of the phone's push token (issue 27) is read with the customer's schedule, to stay
  // within the request's statement budget, and shown with the device.
  const { pushRefusal, ...customer } = record;
  return { ...customer, lockStatus: device.lockStatus, device: { ...device, pushRefusal } };
};
