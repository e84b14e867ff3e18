import type { TOfflineCode } from '@kisht/domain/devices/devices.schema';
import { ZOfflineLockUnlockRequest } from '@kisht/domain/devices/devices.schema';
import type { TOfflineCodeAction } from '@kisht/domain/devices/offline-code';
import { OFFLINE_CHALLENGE_DIGITS, OFFLINE_CODE_ACTIONS } from '@kisht/domain/devices/offline-code';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import PasswordIcon from '@mui/icons-material/Password';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useGetOfflineCodeMutation } from '../device-api';
import { DevOtpBanner, onlyDigits, SendOtpStep, UserOtpField, useUserOtp } from './user-otp';

type TFieldErrors = { challenge: string | null; otp: string | null };

/** The 8-digit code, big enough to read out over the phone, with how long it works. */
const OfflineCodeResult = ({ result }: { result: TOfflineCode }) => {
  const { t } = useTranslation();
  const copy = async () => {
    await navigator.clipboard?.writeText(result.code);
    enqueueSnackbar(t('offlineCode.copied'), { variant: 'success' });
  };
  return (
    <Stack spacing={1} sx={{ alignItems: 'center', py: 1 }}>
      <Typography variant="body2" color="textSecondary">
        {t(`offlineCode.resultFor.${result.action}`)}
      </Typography>
      <Typography
        variant="h3"
        component="p"
        sx={{ fontFamily: 'monospace', letterSpacing: '0.15em', fontWeight: 700 }}
        data-testid="offline-code-result"
      >
        {result.code}
      </Typography>
      <Typography variant="body2" color="textSecondary" data-testid="offline-code-valid-until">
        {t('offlineCode.validUntil', { time: formatDateTime(result.validUntil) })}
      </Typography>
      <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()} data-testid="offline-code-copy">
        {t('offlineCode.copy')}
      </Button>
    </Stack>
  );
};

/**
 * offline_lock_unlock: for a phone with no network. First an OTP of purpose BYPASS_CODE goes to
 * the user's own mobile; then the challenge the phone shows, the action and the OTP give the
 * 8-digit code the customer types on the phone.
 */
const OfflineCodeForm = ({ customerId, onClose }: { customerId: number; onClose: () => void }) => {
  const { t } = useTranslation();
  const otp = useUserOtp('BYPASS_CODE');
  const [getOfflineCode, codeState] = useGetOfflineCodeMutation();
  const [challenge, setChallenge] = useState('');
  const [action, setAction] = useState<TOfflineCodeAction>('unlock');
  const [otpValue, setOtpValue] = useState('');
  const [errors, setErrors] = useState<TFieldErrors>({ challenge: null, otp: null });
  const [result, setResult] = useState<TOfflineCode | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const request = { customer_id: customerId, challenge, action, otp: otpValue };
    const parsed = ZOfflineLockUnlockRequest.safeParse(request);
    if (!parsed.success) {
      const failing = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      setErrors({
        challenge: failing.has('challenge') ? t('offlineCode.invalidChallenge') : null,
        otp: failing.has('otp') ? t('validation.invalidOtp') : null,
      });
      return;
    }
    setErrors({ challenge: null, otp: null });
    const answer = await getOfflineCode(parsed.data);
    if (answer.data) setResult(answer.data);
  };

  if (result) {
    return (
      <>
        <DialogContent>
          <OfflineCodeResult result={result} />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={onClose} data-testid="offline-code-done">
            {t('offlineCode.done')}
          </Button>
        </DialogActions>
      </>
    );
  }

  if (!otp.sent) {
    return (
      <SendOtpStep
        intro={<DialogContentText>{t('offlineCode.intro')}</DialogContentText>}
        otp={otp}
        onClose={onClose}
        sendTestId="offline-code-send-otp"
      />
    );
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1}>
          <DevOtpBanner devOtp={otp.sent.devOtp} testId="offline-code-dev-otp" />
          <DialogContentText>{t('offlineCode.otpSent')}</DialogContentText>
          <TextField
            label={t('offlineCode.challenge')}
            name="challenge"
            value={challenge}
            onChange={(event) => setChallenge(onlyDigits(event.target.value, OFFLINE_CHALLENGE_DIGITS))}
            error={Boolean(errors.challenge)}
            helperText={errors.challenge ?? t('offlineCode.challengeHelp')}
            required
            fullWidth
            sx={{ mt: 1 }}
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                autoComplete: 'off',
                'data-testid': 'offline-code-challenge',
              },
            }}
          />
          <TextField
            select
            label={t('offlineCode.action')}
            name="action"
            value={action}
            onChange={(event) => setAction(event.target.value as TOfflineCodeAction)}
            helperText=" "
            fullWidth
            slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'offline-code-action' } }}
          >
            {OFFLINE_CODE_ACTIONS.map((option) => (
              <option key={option} value={option}>
                {t(`offlineCode.actions.${option}`)}
              </option>
            ))}
          </TextField>
          <UserOtpField
            value={otpValue}
            onChange={setOtpValue}
            error={errors.otp}
            testId="offline-code-otp"
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={codeState.isLoading}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          loading={codeState.isLoading}
          data-testid="offline-code-submit"
        >
          {t('offlineCode.submit')}
        </Button>
      </DialogActions>
    </form>
  );
};

/** The "Offline code" button of customer_details and its dialog. */
export const OfflineCodeButton = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const titleId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const close = () => setIsOpen(false);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<PasswordIcon />}
        onClick={() => setIsOpen(true)}
        data-testid="offline-code-open"
      >
        {t('offlineCode.open')}
      </Button>
      <Dialog open={isOpen} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>{t('offlineCode.title')}</DialogTitle>
        {/* Mounted only while open, so each opening starts with a fresh OTP. */}
        {isOpen ? <OfflineCodeForm customerId={customerId} onClose={close} /> : null}
      </Dialog>
    </>
  );
};
