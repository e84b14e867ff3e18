import type { TLoginWithOtpResponse } from '@kisht/domain/auth/auth.schema';
import type { TSendOtpToUserRequest } from '@kisht/domain/devices/devices.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import TextField from '@mui/material/TextField';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendOtpToUserMutation } from '../device-api';

/** Digits of the OTP a sensitive device action asks for. */
export const USER_OTP_LENGTH = 6;

/** What was typed, kept to its first `length` digits. */
export const onlyDigits = (raw: string, length: number): string => raw.replace(/\D/g, '').slice(0, length);

/**
 * The OTP step of a sensitive device action: sends an OTP of `purpose` to the signed-in user's own
 * mobile and keeps the answer (its devOtp, outside production). A failure is toasted by the store.
 */
export const useUserOtp = (purpose: TSendOtpToUserRequest['purpose']) => {
  const [sendOtp, state] = useSendOtpToUserMutation();
  const [sent, setSent] = useState<TLoginWithOtpResponse | null>(null);
  const send = async () => {
    const result = await sendOtp({ purpose });
    if (result.data) setSent(result.data);
  };
  return { sent, send, isSending: state.isLoading };
};

/** The OTP itself, shown outside production only (as on the login OTP screen). */
export const DevOtpBanner = ({ devOtp, testId }: { devOtp: string | undefined; testId: string }) => {
  const { t } = useTranslation();
  if (!devOtp) return null;
  return (
    <Alert severity="info" data-testid={testId}>
      {t('otp.devBanner', { otp: devOtp })}
    </Alert>
  );
};

type TUserOtpFieldProps = {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  testId: string;
};

/** The 6-digit OTP field of a device action's dialog. */
export const UserOtpField = ({ value, onChange, error, testId }: TUserOtpFieldProps) => {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('otp.label')}
      name="otp"
      value={value}
      onChange={(event) => onChange(onlyDigits(event.target.value, USER_OTP_LENGTH))}
      error={Boolean(error)}
      helperText={error ?? ' '}
      required
      fullWidth
      slotProps={{
        htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', 'data-testid': testId },
      }}
    />
  );
};

type TSendOtpStepProps = {
  /** What the dialog explains before the OTP is sent. */
  intro: ReactNode;
  otp: ReturnType<typeof useUserOtp>;
  onClose: () => void;
  /** data-testid of the send button. */
  sendTestId: string;
};

/** The first step of a dialog that needs the user's own OTP: the explanation, Cancel and Send OTP. */
export const SendOtpStep = ({ intro, otp, onClose, sendTestId }: TSendOtpStepProps) => {
  const { t } = useTranslation();
  return (
    <>
      <DialogContent>{intro}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={otp.isSending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void otp.send()}
          loading={otp.isSending}
          data-testid={sendTestId}
        >
          {t('offlineCode.sendOtp')}
        </Button>
      </DialogActions>
    </>
  );
};
