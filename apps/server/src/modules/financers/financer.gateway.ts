/**
 * What a financer's system needs to open its own record of a customer we finance with it: who the
 * borrower is, the phone (IMEIs) and the loan. Money is integer paise; dates YYYY-MM-DD.
 */
export type TFinancerCustomer = {
  /** Our id of the customer, unique per organisation ("{orgId}-{customerId}" on the wire). */
  orgId: number;
  customerId: number;
  firstName: string;
  lastName: string;
  /** E.164, +91XXXXXXXXXX. */
  mobile: string;
  email: string | null;
  dateOfBirth: string | null;
  address: {
    line1: string;
    city: string;
    stateCode: string;
    countryCode: string;
    pincode?: string | undefined;
  } | null;
  /** 15-digit Luhn-valid IMEIs of the financed phone. */
  imei1: string;
  imei2: string;
  productName: string;
};

/** The loan as the financer books it; integer paise, annual rate in basis points. */
export type TFinancerLoan = {
  pricePaise: number;
  downPaymentPaise: number;
  loanAmountPaise: number;
  tenureMonths: number;
  annualRateBps: number;
  emiPaise: number;
};

/**
 * A financer's customer API (issue 13, spec §7 create-customer-hdb). `createCustomer` resolves to
 * the financer's own reference once its system accepted the customer; it throws when the system
 * cannot be reached or refuses (after the adapter's own retries). Creating the same customer again
 * is safe: the adapter sends an idempotency key per customer, so the financer answers the same
 * reference.
 */
export type TFinancerGateway = {
  /** For logs: 'hdb', 'fake-hdb'. */
  name: string;
  createCustomer: (request: {
    customer: TFinancerCustomer;
    loan: TFinancerLoan;
  }) => Promise<{ reference: string }>;
};
