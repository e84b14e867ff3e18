import { zodResolver } from '@hookform/resolvers/zod';
import { ZUninstallRequest } from '@kisht/domain/devices/devices.schema';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { useUninstallDeviceMutation } from '../device-api';
import { DevOtpBanner, SendOtpStep, UserOtpField, useUserOtp } from './user-otp';

/** What the uninstall form holds: the OTP as typed (the customer comes from the page). */
export type TUninstallForm = { otp: string };

/** The form's check: the OTP by the request schema's own rule (domain ZUninstallRequest). */
const uninstallResolver = zodResolver<TUninstallForm, unknown, TUninstallForm>(
  ZUninstallRequest.pick({ otp: true }),
);
const formFieldOf = (requestField: string) => (requestField === 'otp' ? ('otp' as const) : null);

type TUninstallDialogProps = { customerId: number; isOpen: boolean; onClose: () => void };

/**
 * Uninstall (release) the customer's phone (spec §4): the app and its protection leave the phone.
 * It asks for an OTP of purpose UNINSTALL sent to the user's own mobile, then POSTs
 * paths.devices.uninstall.
 */
export const UninstallDialog = ({ customerId, isOpen, onClose }: TUninstallDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog isOpen={isOpen} onClose={onClose} title={t('deviceActions.confirm.uninstall.title')}>
      <UninstallForm customerId={customerId} onClose={onClose} />
    </FormDialog>
  );
};

const UninstallForm = ({ customerId, onClose }: { customerId: number; onClose: () => void }) => {
  const { t } = useTranslation();
  const otp = useUserOtp('UNINSTALL');
  const [uninstall, uninstallState] = useUninstallDeviceMutation();
  const form = useForm<TUninstallForm, unknown, TUninstallForm>({
    resolver: uninstallResolver,
    defaultValues: { otp: '' },
  });

  const submit = form.handleSubmit(async (values) => {
    // The request schema has the last word on what is sent.
    const request = ZUninstallRequest.parse({ customer_id: customerId, otp: values.otp });
    const result = await uninstall(request);
    if (result.error) {
      // Other failures are toasted by the store; the server's words about the OTP go under it.
      if (isApiError(result.error)) applyServerFieldErrors(result.error, form.setError, formFieldOf);
      return;
    }
    enqueueSnackbar(t('deviceActions.sent', { action: t('controlFeature.uninstall') }), { variant: 'info' });
    onClose();
  });

  if (!otp.sent) {
    return (
      <SendOtpStep
        intro={
          <>
            <DialogContentText>{t('deviceActions.confirm.uninstall.body')}</DialogContentText>
            <DialogContentText sx={{ mt: 1 }}>{t('deviceActions.uninstallOtp.intro')}</DialogContentText>
          </>
        }
        otp={otp}
        onClose={onClose}
        sendTestId="uninstall-send-otp"
      />
    );
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1}>
          <DevOtpBanner devOtp={otp.sent.devOtp} testId="uninstall-dev-otp" />
          <DialogContentText>{t('deviceActions.uninstallOtp.otpSent')}</DialogContentText>
          <Controller
            control={form.control}
            name="otp"
            render={({ field, fieldState }) => (
              <UserOtpField
                value={field.value}
                onChange={field.onChange}
                error={fieldErrorText(fieldState.error, () => t('validation.invalidOtp'))}
                testId="uninstall-otp"
              />
            )}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={uninstallState.isLoading}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          color="error"
          loading={uninstallState.isLoading}
          data-testid="uninstall-confirm"
        >
          {t('controlFeature.uninstall')}
        </Button>
      </DialogActions>
    </form>
  );
};
