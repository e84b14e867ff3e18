import type { paymentQrContract } from '@kisht/domain/contract/payment-qr';
import type { TMyLoan } from '@kisht/domain/emi/emi.schema';
import { paths } from '@kisht/domain/paths';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { DetailList } from '../../../components/detail-list';
import { contractBlobSource } from '../../../lib/http/contract-download';
import { useBlobUrl } from '../../../lib/http/use-blob-url';

type TCustomerQrImage = (typeof paymentQrContract)['customerImage'];

/** On-screen size of the UPI QR code, CSS px. */
const UPI_QR_SIZE = 200;

/** The retailer's uploaded QR image (fetched with the session's headers), for a loan of this customer. */
const ShopQrImage = ({ customerId, retailerName }: { customerId: number; retailerName: string }) => {
  const { t } = useTranslation();
  const image = useBlobUrl(
    contractBlobSource<TCustomerQrImage>(
      { path: paths.users.paymentQrImage, method: 'GET' },
      { customer_id: customerId },
    ),
  );
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
      {image.url ? (
        <Box
          component="img"
          src={image.url}
          alt={t('paymentQr.customerOwnQrLabel', { name: retailerName })}
          sx={{ width: UPI_QR_SIZE, maxWidth: '100%', height: 'auto', bgcolor: '#fff', borderRadius: 1 }}
          data-testid="my-loan-shop-qr-image"
        />
      ) : (
        <Typography variant="body2" color="textSecondary">
          {image.error || t('common.loading')}
        </Typography>
      )}
      <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
        {t('paymentQr.customerOwnQrHint')}
      </Typography>
    </Stack>
  );
};

/**
 * "How to pay" of the customer's own loan: the retailer's name and UPI ID, the loan's EMI PIN to
 * quote in the payment note (when one has been issued) and, when the server
 * gives a `upi://pay` link for the next amount due, its QR code (scan with any UPI app) and a
 * "Pay with UPI app" link that opens the phone's UPI app. When the retailer uploaded their own QR
 * image (retailer_payment_qr, `payTo.hasQrImage`), that image is shown instead of the generated QR
 * (fetched by `customerId`), and the button still carries the amount due.
 */
export const HowToPayCard = ({ payTo, customerId }: { payTo: TMyLoan['payTo']; customerId?: number }) => {
  const { t } = useTranslation();
  // The shop's own uploaded QR (retailer_payment_qr) is shown instead of the generated one.
  const hasOwnQr = payTo.hasQrImage === true && customerId !== undefined;
  return (
    <Card data-testid="my-loan-how-to-pay">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('myLoan.howToPay')}
          </Typography>
          <DetailList
            items={[
              { label: t('myLoan.retailer'), value: payTo.retailerName, testId: 'my-loan-retailer' },
              {
                label: t('myLoan.upiId'),
                value: payTo.upiId ?? t('common.notAvailable'),
                testId: 'my-loan-upi-id',
              },
              ...(payTo.emiPin
                ? [{ label: t('myLoan.emiPin'), value: payTo.emiPin, testId: 'my-loan-emi-pin' }]
                : []),
            ]}
          />
          {payTo.emiPin ? (
            <Typography variant="body2" color="textSecondary" data-testid="my-loan-emi-pin-hint">
              {t('myLoan.emiPinHint', { pin: payTo.emiPin })}
            </Typography>
          ) : null}
          {hasOwnQr && customerId !== undefined ? (
            <ShopQrImage customerId={customerId} retailerName={payTo.retailerName} />
          ) : null}
          {payTo.upiLink ? (
            <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
              {hasOwnQr ? null : (
                <Box
                  sx={{ p: 1.5, bgcolor: '#fff', borderRadius: 1, lineHeight: 0 }}
                  data-testid="my-loan-upi-qr"
                >
                  <QRCodeSVG
                    value={payTo.upiLink}
                    size={UPI_QR_SIZE}
                    marginSize={2}
                    title={t('myLoan.qrLabel', { name: payTo.retailerName })}
                    role="img"
                    aria-label={t('myLoan.qrLabel', { name: payTo.retailerName })}
                  />
                </Box>
              )}
              {hasOwnQr ? null : (
                <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
                  {t('myLoan.scanHint')}
                </Typography>
              )}
              <Button
                variant="contained"
                size="large"
                component="a"
                href={payTo.upiLink}
                data-testid="my-loan-pay-upi"
              >
                {t('myLoan.payWithUpi')}
              </Button>
            </Stack>
          ) : hasOwnQr ? null : (
            <Typography variant="body2" color="textSecondary" data-testid="my-loan-pay-in-shop">
              {t('myLoan.payInShop', { name: payTo.retailerName })}
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
};
