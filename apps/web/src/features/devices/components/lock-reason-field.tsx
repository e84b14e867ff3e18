import { LOCK_REASON_MAX, LOCK_REASON_MIN } from '@kisht/domain/devices/devices.rules';
import { ZLockReason } from '@kisht/domain/devices/devices.schema';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The reason typed for a lock, checked as the server checks it (ZLockReason: trimmed,
 * LOCK_REASON_MIN to LOCK_REASON_MAX characters): the reason to send, or null when it is not one.
 */
export const lockReasonOf = (text: string): string | null => {
  const parsed = ZLockReason.safeParse(text);
  return parsed.success ? parsed.data : null;
};

type TLockReasonFieldProps = {
  value: string;
  onChange: (value: string) => void;
  /** The error to show under the field (the app's own or the server's), or null. */
  error: string | null;
  /** The translation key of why a reason is asked for; default: nothing is overdue (issue 12). */
  whyKey?: 'device.reasonWhy' | 'enrolment.paymentLockRule.body' | undefined;
};

/**
 * Why a phone is locked, when the lock needs one (issue 12: nothing overdue; issue 15: a
 * managed-Android phone, never locked for a payment): says why a reason is asked for, and takes it
 * (required). The server records it with the command and its audit entry.
 */
export const LockReasonField = ({ value, onChange, error, whyKey }: TLockReasonFieldProps) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5} sx={{ pt: 1 }}>
      <Alert severity="warning" data-testid="lock-reason-why">
        {t(whyKey ?? 'device.reasonWhy')}
      </Alert>
      <TextField
        id="lock-reason"
        name="reason"
        label={t('device.reason')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error !== null}
        helperText={error ?? t('device.reasonHelp', { min: LOCK_REASON_MIN, max: LOCK_REASON_MAX })}
        required
        multiline
        minRows={2}
        fullWidth
        slotProps={{ htmlInput: { maxLength: LOCK_REASON_MAX + 20, 'data-testid': 'lock-reason' } }}
      />
    </Stack>
  );
};

/**
 * The state of a lock reason being typed: `field` for LockReasonField (typing clears the error),
 * `check()` the reason to send, or null after putting the app's error under the field, `setError`
 * for the server's word on `reason`, and `reset()` for a dialog opened again.
 */
export const useLockReason = () => {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    field: {
      value: text,
      onChange: (next: string) => {
        setText(next);
        setError(null);
      },
      error,
    },
    check: (): string | null => {
      const reason = lockReasonOf(text);
      setError(
        reason === null ? t('device.reasonError', { min: LOCK_REASON_MIN, max: LOCK_REASON_MAX }) : null,
      );
      return reason;
    },
    setError,
    reset: () => {
      setText('');
      setError(null);
    },
  };
};
