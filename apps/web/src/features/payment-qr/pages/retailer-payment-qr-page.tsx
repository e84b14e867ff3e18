import { zodResolver } from '@hookform/resolvers/zod';
import type { TPaymentQrSettings, TSavePaymentQrRequest } from '@kisht/domain/users/payment-qr.schema';
import { VPA_MAX_LENGTH, ZSavePaymentQrRequest } from '@kisht/domain/users/payment-qr.schema';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { QRCodeCanvas } from 'qrcode.react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DetailList } from '../../../components/detail-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { useGetPaymentQrQuery, useSavePaymentQrMutation } from '../payment-qr-api';

/** On-screen QR size, CSS px: fits a 320 px-wide phone with page padding. */
const QR_SIZE = 240;
/** The downloaded PNG is drawn larger so it prints sharply on a shop-counter standee. */
const QR_DOWNLOAD_SIZE = 1024;
/** The quiet zone the QR specification requires, in modules. */
const QR_MARGIN_MODULES = 4;

type TPaymentQrForm = { upiId: string };

const resolver = zodResolver<TPaymentQrForm, unknown, TSavePaymentQrRequest>(ZSavePaymentQrRequest);

/** The UPI ID form: validated by the domain schema before any request; server errors land under the field. */
const UpiIdForm = ({ settings }: { settings: TPaymentQrSettings }) => {
  const { t } = useTranslation();
  const [save, saveState] = useSavePaymentQrMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const form = useForm<TPaymentQrForm, unknown, TSavePaymentQrRequest>({
    resolver,
    defaultValues: { upiId: settings.upiId ?? '' },
    mode: 'onTouched',
  });

  const submit = form.handleSubmit(async (request) => {
    setServerMessage(null);
    const result = await save(request);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error
        ? applyServerFieldErrors(error, form.setError, (field) => (field === 'upiId' ? 'upiId' : null))
        : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    form.reset({ upiId: result.data.upiId ?? '' });
    enqueueSnackbar(t('paymentQr.saved'), { variant: 'success' });
  });

  const upiIdError = fieldErrorText(form.formState.errors.upiId, () =>
    form.getValues('upiId').trim() === '' ? t('validation.required') : t('paymentQr.invalidUpiId'),
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="payment-qr-form">
      <Stack spacing={2}>
        <TextField
          {...form.register('upiId')}
          label={t('paymentQr.upiId')}
          placeholder="yourshop@okaxis"
          error={upiIdError !== null}
          helperText={upiIdError ?? t('paymentQr.upiIdHint')}
          autoComplete="off"
          autoCapitalize="none"
          fullWidth
          slotProps={{ htmlInput: { maxLength: VPA_MAX_LENGTH, 'data-testid': 'payment-qr-upi-id' } }}
        />
        {serverMessage ? (
          <Alert severity="error" data-testid="payment-qr-error">
            {serverMessage}
          </Alert>
        ) : null}
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button
            type="submit"
            variant="contained"
            loading={saveState.isLoading}
            disabled={!form.formState.isDirty}
            data-testid="payment-qr-save"
          >
            {t('paymentQr.save')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
};

/** The standing UPI QR (no amount: the customer types it), with a PNG download. */
const UpiQrCard = ({ settings, upiLink }: { settings: TPaymentQrSettings; upiLink: string }) => {
  const { t } = useTranslation();
  const downloadCanvasRef = useRef<HTMLCanvasElement>(null);
  const qrTitle = t('paymentQr.qrLabel', { name: settings.payeeName });

  const handleDownload = () => {
    const canvas = downloadCanvasRef.current;
    if (!canvas) return;
    const link = document.createElement('a');
    link.href = canvas.toDataURL('image/png');
    link.download = `upi-qr-${settings.upiId ?? 'shop'}.png`;
    link.click();
  };

  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center' }} data-testid="payment-qr-code">
      <Box
        sx={{ p: 1, bgcolor: '#ffffff', borderRadius: 2, border: 1, borderColor: 'divider', lineHeight: 0 }}
      >
        <QRCodeCanvas
          value={upiLink}
          size={QR_SIZE}
          level="M"
          marginSize={QR_MARGIN_MODULES}
          title={qrTitle}
          role="img"
          aria-label={qrTitle}
          data-testid="payment-qr-image"
          data-value={upiLink}
        />
      </Box>
      <Box sx={{ display: 'none' }} aria-hidden="true">
        <QRCodeCanvas
          ref={downloadCanvasRef}
          value={upiLink}
          size={QR_DOWNLOAD_SIZE}
          level="M"
          marginSize={QR_MARGIN_MODULES}
        />
      </Box>
      <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
        {t('paymentQr.scanHint')}
      </Typography>
      <Button
        variant="outlined"
        startIcon={<DownloadIcon />}
        onClick={handleDownload}
        data-testid="payment-qr-download"
      >
        {t('paymentQr.download')}
      </Button>
    </Stack>
  );
};

/** The page body once the settings are in. */
const PaymentQrBody = ({ settings }: { settings: TPaymentQrSettings }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <DetailList
              items={[
                {
                  label: t('paymentQr.payeeName'),
                  value: settings.payeeName,
                  testId: 'payment-qr-payee-name',
                },
              ]}
            />
            <Typography variant="body2" color="textSecondary">
              {t('paymentQr.payeeNameHint')}
            </Typography>
            <UpiIdForm settings={settings} />
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          {settings.upiLink ? (
            <UpiQrCard settings={settings} upiLink={settings.upiLink} />
          ) : (
            <Typography color="textSecondary" data-testid="payment-qr-none">
              {t('paymentQr.noUpiId')}
            </Typography>
          )}
        </CardContent>
      </Card>
      <Card data-testid="payment-qr-how-customers-pay">
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {t('paymentQr.howCustomersPay')}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {t('paymentQr.howCustomersPayBody')}
          </Typography>
        </CardContent>
      </Card>
    </Stack>
  );
};

/**
 * retailer_payment_qr: the retailer's (or mini-retailer's) UPI ID and payee name, and the UPI QR
 * code of `upi://pay?pa=…&pn=…&cu=INR` (NPCI UPI linking specification) drawn in the browser, to
 * show at the counter or download as a PNG. Customers' own loan screens use the same UPI ID with
 * the instalment amount filled in.
 */
export const RetailerPaymentQrPage = () => {
  const { t } = useTranslation();
  const settings = useGetPaymentQrQuery(undefined, { refetchOnMountOrArgChange: true });

  const renderBody = () => {
    if (settings.isLoading) return <PageSkeleton />;
    if (!settings.data) {
      return (
        <LoadError
          message={isApiError(settings.error) ? settings.error.message : undefined}
          onRetry={settings.refetch}
        />
      );
    }
    return <PaymentQrBody settings={settings.data} />;
  };

  return (
    <>
      <PageHeader title={t('pages.retailer_payment_qr')} subtitle={t('paymentQr.subtitle')} />
      {renderBody()}
    </>
  );
};
