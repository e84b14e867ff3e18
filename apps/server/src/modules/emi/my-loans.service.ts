import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { istDate } from '@kisht/domain/common/time';
import { borrowerDue } from '@kisht/domain/emi/emi.rules';
import type { TMyInstalmentRow, TMyLoan } from '@kisht/domain/emi/emi.schema';
import { instalmentReference, upiPayLink } from '@kisht/domain/users/upi';
import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { findUser } from '../auth/auth.service';
import { getPenaltyRule } from '../orgs/orgs.service';
import * as repo from './emi.repository';
import { scheduleTotals, toInstalmentRow } from './emi.service';

/**
 * The customer user's own loans (spec §4 user type customer): every customer record of the
 * organisation with their mobile, with instalments, lock status and how to pay the retailer.
 * Each instalment carries what the borrower owes today (borrowerDue: days overdue, the late fee
 * levied or due under the organisation's rule, the total due including it), and the UPI link asks
 * for the earliest unpaid instalment's total due. Only their own: the mobile comes from the
 * session. Throws FORBIDDEN for other user types.
 */
export const listMyLoans = async (db: DbOrTx, actor: TActor): Promise<TMyLoan[]> => {
  if (actor.userType !== 'customer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only customers have loans here');
  const user = actor.known?.user ?? (await findUser(db, actor.userId));
  if (!user) throw new AppError(AppErrorCode.SESSION_INVALID, 'Your session has ended. Please log in again');
  const today = istDate();
  const [loans, rule] = await Promise.all([
    repo.findLoansOfMobile(db, actor.orgId, user.mobile),
    getPenaltyRule(db, actor),
  ]);
  return Promise.all(
    loans.map(async (loan) => {
      const instalments = (await repo.findEmisOfCustomer(db, loan.customerId)).map(
        (e): TMyInstalmentRow => ({ ...toInstalmentRow(e, today, rule), ...borrowerDue(e, rule, today) }),
      );
      const next = instalments.find((i) => i.outstandingPaise > 0);
      return {
        customerId: loan.customerId,
        productName: `${loan.productBrand} ${loan.productName}`,
        lockStatus: loan.reportedLocked ? 1 : 0,
        instalments,
        totals: scheduleTotals(instalments),
        payTo: {
          retailerName: loan.retailerName,
          upiId: loan.retailerUpiId,
          upiLink:
            loan.retailerUpiId && next
              ? upiPayLink({
                  vpa: loan.retailerUpiId,
                  payeeName: loan.retailerUpiPayeeName ?? loan.retailerName,
                  amountPaise: next.totalDuePaise,
                  reference: instalmentReference(loan.customerId, next.instalmentNo),
                  note: loan.emiPin
                    ? `EMI PIN ${loan.emiPin} EMI ${next.instalmentNo}`
                    : `EMI ${next.instalmentNo} loan ${loan.customerId}`,
                })
              : null,
          hasQrImage: loan.retailerPaymentQrMediaId !== null,
          emiPin: loan.emiPin,
        },
      };
    }),
  );
};
