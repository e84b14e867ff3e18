/**
 * UPI intent links (NPCI UPI linking specification): `upi://pay?pa=<VPA>&pn=<payee name>&cu=INR`,
 * with `am` (rupees, two decimals), `tr` (the payee's transaction reference) and `tn` (a note) when
 * given. Values are percent-encoded
 * (RFC 3986; a space is %20, never '+'); the '@' of the VPA stays as it is, which UPI apps expect.
 */
const encodeUpiValue = (value: string): string => encodeURIComponent(value).replaceAll('%40', '@');

/**
 * A UPI payment link for the payee `vpa` (e.g. ravimobiles@okaxis) named `payeeName`. Without
 * `amountPaise` the payer types the amount (a shop's standing QR); with it (integer paise) the link
 * asks for that amount. `note` becomes the transaction note `tn`.
 */
export const upiPayLink = (options: {
  vpa: string;
  payeeName: string;
  amountPaise?: number;
  /** The transaction reference `tr` (instalmentReference), which the payment carries back. */
  reference?: string;
  note?: string;
}): string => {
  const params: [string, string][] = [
    ['pa', options.vpa],
    ['pn', options.payeeName],
    ...(options.amountPaise === undefined
      ? []
      : ([['am', (options.amountPaise / 100).toFixed(2)]] as [string, string][])),
    ...(options.reference === undefined ? [] : ([['tr', options.reference]] as [string, string][])),
    ['cu', 'INR'],
    ...(options.note === undefined ? [] : ([['tn', options.note]] as [string, string][])),
  ];
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeUpiValue(value)}`).join('&')}`;
};

/** The shape of an instalment's payment reference: `KSH`, the customer id, `I`, the instalment number. */
const INSTALMENT_REFERENCE = /^KSH(\d{1,12})I(\d{1,3})$/;

/**
 * The transaction reference (`tr`, issue 29) of one instalment's UPI intent or QR: `KSH<customer
 * id>I<instalment no>` (letters and digits only, well under the 35 characters UPI allows), so a
 * payment that carries it back is matched to its instalment without anyone typing.
 */
export const instalmentReference = (customerId: number, instalmentNo: number): string =>
  `KSH${customerId}I${instalmentNo}`;

/** The customer and instalment a payment reference names, or null for anything else. */
export const parseInstalmentReference = (
  reference: string,
): { customerId: number; instalmentNo: number } | null => {
  const match = INSTALMENT_REFERENCE.exec(reference.trim().toUpperCase());
  return match ? { customerId: Number(match[1]), instalmentNo: Number(match[2]) } : null;
};
