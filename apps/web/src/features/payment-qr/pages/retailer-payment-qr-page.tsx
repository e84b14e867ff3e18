import { zodResolver } from '@hookform/resolvers/zod';
import type { retailersContract } from '@kisht/domain/contract/retailers';
import { paths } from '@kisht/domain/paths';
import type { TPaymentQrSettings, TSavePaymentQrRequest } from '@kisht/domain/users/payment-qr.schema';
import {
  INVALID_PAYEE_NAME_MESSAGE,
  PAYEE_NAME_MAX_LENGTH,
  VPA_MAX_LENGTH,
  ZPayeeName,
  ZVpa,
} from '@kisht/domain/users/payment-qr.schema';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
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
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FilePickButton } from '../../../components/file-pick-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { contractBlobSource } from '../../../lib/http/contract-download';
import { useBlobUrl } from '../../../lib/http/use-blob-url';
import { prepareUploadFile } from '../../../lib/upload-file';
import {
  useDeletePaymentQrImageMutation,
  useGetPaymentQrQuery,
  useSavePaymentQrMutation,
  useUploadPaymentQrImageMutation,
} from '../payment-qr-api';

/** The users' own images route (profile image, signature, payment QR): the uploaded QR here. */
type TUserImage = (typeof retailersContract)['image'];

/** On-screen QR size, CSS px: fits a 320 px-wide phone with page padding. */
const QR_SIZE = 240;
/** The downloaded PNG is drawn larger so it prints sharply on a shop-counter standee. */
const QR_DOWNLOAD_SIZE = 1024;
/** The quiet zone the QR specification requires, in modules. */
const QR_MARGIN_MODULES = 4;

type TPaymentQrForm = { upiId: string; payeeName: string };

/**
 * The form's schema: the domain's UPI ID and payee name rules (ZSavePaymentQrRequest's), except
 * that the account's own name, while it is still the payee name, is sent as nothing (it may hold
 * characters a payee name may not, and the server keeps using it).
 */
const formSchemaFor = (settings: TPaymentQrSettings) =>
  z.object({
    upiId: ZVpa,
    payeeName: z
      .string()
      .trim()
      .transform((value, ctx) => {
        if (!settings.isPayeeNameCustom && value === settings.payeeName.trim()) return undefined;
        const parsed = ZPayeeName.safeParse(value);
        if (parsed.success) return parsed.data;
        ctx.addIssue({ code: 'custom', message: INVALID_PAYEE_NAME_MESSAGE });
        return z.NEVER;
      }),
  });

/**
 * The UPI ID and payee name form: validated by the domain rules before any request; server errors
 * land under their fields.
 */
const UpiIdForm = ({ settings }: { settings: TPaymentQrSettings }) => {
  const { t } = useTranslation();
  const [save, saveState] = useSavePaymentQrMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const resolver = useMemo(
    () => zodResolver<TPaymentQrForm, unknown, TSavePaymentQrRequest>(formSchemaFor(settings)),
    [settings],
  );
  const form = useForm<TPaymentQrForm, unknown, TSavePaymentQrRequest>({
    resolver,
    defaultValues: { upiId: settings.upiId ?? '', payeeName: settings.payeeName },
    mode: 'onTouched',
  });

  const submit = form.handleSubmit(async (request) => {
    setServerMessage(null);
    const body: TSavePaymentQrRequest = request.payeeName === undefined ? { upiId: request.upiId } : request;
    const result = await save(body);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error
        ? applyServerFieldErrors(error, form.setError, (field) =>
            field === 'upiId' || field === 'payeeName' ? field : null,
          )
        : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    form.reset({ upiId: result.data.upiId ?? '', payeeName: result.data.payeeName });
    enqueueSnackbar(t('paymentQr.saved'), { variant: 'success' });
  });

  const upiIdError = fieldErrorText(form.formState.errors.upiId, () =>
    form.getValues('upiId').trim() === '' ? t('validation.required') : t('paymentQr.invalidUpiId'),
  );
  const payeeNameError = fieldErrorText(form.formState.errors.payeeName, () =>
    form.getValues('payeeName').trim() === '' ? t('validation.required') : t('paymentQr.invalidPayeeName'),
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="payment-qr-form">
      <Stack spacing={2}>
        <TextField
          {...form.register('payeeName')}
          label={t('paymentQr.payeeName')}
          error={payeeNameError !== null}
          helperText={payeeNameError ?? t('paymentQr.payeeNameHint')}
          autoComplete="organization"
          fullWidth
          slotProps={{
            htmlInput: {
              maxLength: PAYEE_NAME_MAX_LENGTH + 10,
              'data-testid': 'payment-qr-payee-name-input',
            },
          }}
        />
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

/** On-screen width of the uploaded QR image, CSS px (as the generated one). */
const QR_IMAGE_WIDTH = 240;

/**
 * The shop's own QR image (from its bank or UPI app), shown to customers instead of the
 * generated one: the image when there is one, with Remove; else an upload button. The picked
 * image is compressed in the browser first (spec §5: longer side 1200 px, quality 0.8).
 */
const QrImageCard = ({ settings }: { settings: TPaymentQrSettings }) => {
  const { t } = useTranslation();
  const [upload, uploadState] = useUploadPaymentQrImageMutation();
  const [remove, removeState] = useDeletePaymentQrImageMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const image = useBlobUrl(
    settings.qrImage
      ? contractBlobSource<TUserImage>(
          { path: paths.users.image, method: 'GET' },
          { kind: 'payment_qr' },
          settings.qrImage.uploadedAt,
        )
      : null,
  );

  const handleFile = async (file: File) => {
    setProblem(null);
    const prepared = await prepareUploadFile(file, { canBePdf: false });
    if ('problem' in prepared) {
      setProblem(
        t(
          prepared.problem === 'notAllowed' ? 'upload.errors.imageOnly' : `upload.errors.${prepared.problem}`,
        ),
      );
      return;
    }
    const result = await upload(prepared.file);
    if (result.error) {
      setProblem(apiErrorMessage(result.error, t('errors.somethingWentWrong')));
      return;
    }
    enqueueSnackbar(t('paymentQr.imageSaved'), { variant: 'success' });
  };

  const handleRemove = async () => {
    setProblem(null);
    const result = await remove();
    if (result.error) setProblem(apiErrorMessage(result.error, t('errors.somethingWentWrong')));
  };

  return (
    <Stack spacing={1.5} data-testid="payment-qr-upload">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t('paymentQr.ownImageTitle')}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {settings.qrImage ? t('paymentQr.ownImageInUse') : t('paymentQr.ownImageHint')}
      </Typography>
      {settings.qrImage ? (
        <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
          <Box
            sx={{
              p: 1,
              bgcolor: '#ffffff',
              borderRadius: 2,
              border: 1,
              borderColor: 'divider',
              lineHeight: 0,
            }}
          >
            {image.url ? (
              <Box
                component="img"
                src={image.url}
                alt={t('paymentQr.ownImageAlt', { name: settings.payeeName })}
                sx={{ width: QR_IMAGE_WIDTH, maxWidth: '100%', height: 'auto' }}
                data-testid="payment-qr-uploaded-image"
              />
            ) : (
              <Typography variant="body2" color="textSecondary" sx={{ p: 2, lineHeight: 1.5 }}>
                {image.error || t('common.loading')}
              </Typography>
            )}
          </Box>
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteIcon />}
            loading={removeState.isLoading}
            onClick={() => void handleRemove()}
            data-testid="payment-qr-remove-image"
          >
            {t('paymentQr.removeImage')}
          </Button>
        </Stack>
      ) : null}
      <FilePickButton
        label={settings.qrImage ? t('paymentQr.replaceImage') : t('paymentQr.uploadImage')}
        accept="image/png,image/jpeg"
        variant={settings.qrImage ? 'text' : 'outlined'}
        startIcon={<UploadIcon />}
        isBusy={uploadState.isLoading}
        onFile={(file) => void handleFile(file)}
        inputTestId="payment-qr-image-input"
      />
      {problem ? (
        <Alert severity="error" data-testid="payment-qr-image-error">
          {problem}
        </Alert>
      ) : null}
    </Stack>
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
      <Card>
        <CardContent>
          <QrImageCard settings={settings} />
        </CardContent>
      </Card>
      <Card data-testid="payment-qr-how-customers-pay">
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {t('paymentQr.howCustomersPay')}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {settings.qrImage ? t('paymentQr.howCustomersPayOwnImage') : t('paymentQr.howCustomersPayBody')}
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
