/**
 * UPI intent links (NPCI UPI linking specification): `upi://pay?pa=<VPA>&pn=<payee name>&cu=INR`,
 * with `am` (rupees, two decimals) and `tn` (a note) when given. Values are percent-encoded
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
  note?: string;
}): string => {
  const params: [string, string][] = [
    ['pa', options.vpa],
    ['pn', options.payeeName],
    ...(options.amountPaise === undefined
      ? []
      : ([['am', (options.amountPaise / 100).toFixed(2)]] as [string, string][])),
    ['cu', 'INR'],
    ...(options.note === undefined ? [] : ([['tn', options.note]] as [string, string][])),
  ];
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeUpiValue(value)}`).join('&')}`;
};
