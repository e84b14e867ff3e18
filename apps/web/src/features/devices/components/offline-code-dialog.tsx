import { zodResolver } from '@hookform/resolvers/zod';
import type { TCommandFacts } from '@kisht/domain/devices/command-rules';
import { commandOfferFor } from '@kisht/domain/devices/command-rules';
import type { TOfflineCode } from '@kisht/domain/devices/devices.schema';
import { ZOfflineLockUnlockRequest } from '@kisht/domain/devices/devices.schema';
import type { TOfflineCodeAction } from '@kisht/domain/devices/offline-code';
import { OFFLINE_CHALLENGE_DIGITS, OFFLINE_CODE_ACTIONS } from '@kisht/domain/devices/offline-code';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import PasswordIcon from '@mui/icons-material/Password';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent } from 'react';
import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { useGetOfflineCodeMutation } from '../device-api';
import { isRefused } from '../device-controls';
import { LockReasonPicker, useLockReason } from './lock-reason-picker';
import { DevOtpBanner, onlyDigits, SendOtpStep, UserOtpField, useUserOtp } from './user-otp';

/** What the offline-code form holds: the request without the customer (it comes from the page). */
export type TOfflineCodeForm = { challenge: string; action: TOfflineCodeAction; otp: string };

/**
 * The form's check: the request schema's own rules (domain ZOfflineLockUnlockRequest); the reason
 * of a lock code is the picker's (useLockReason).
 */
const offlineCodeResolver = zodResolver<TOfflineCodeForm, unknown, TOfflineCodeForm>(
  ZOfflineLockUnlockRequest.omit({ customer_id: true, reason_category: true, reason: true }),
);

/** The command gate's name of an offline code for `action` (domain GATE_ONLY_INTENTS). */
const gateIntentOf = (action: TOfflineCodeAction) =>
  action === 'lock' ? 'offline_code_lock' : 'offline_code_unlock';

/**
 * The offline-code actions the rules allow for this customer (issue 25): a lock code is a
 * restriction, so a paid-up customer gets only an unlock code, and a released phone none.
 */
export const offlineCodeActionsOf = (facts: TCommandFacts): TOfflineCodeAction[] =>
  OFFLINE_CODE_ACTIONS.filter((action) => !isRefused(commandOfferFor(facts, gateIntentOf(action))));

/** The request fields the server may name in its field errors, as the form's fields. */
const SERVER_FIELDS: ReadonlyArray<Path<TOfflineCodeForm>> = ['challenge', 'action', 'otp'];
const formFieldOf = (requestField: string) => SERVER_FIELDS.find((field) => field === requestField) ?? null;

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

type TOfflineCodeFormProps = { customerId: number; facts: TCommandFacts; onClose: () => void };

/**
 * offline_lock_unlock: for a phone with no network. First an OTP of purpose BYPASS_CODE goes to
 * the user's own mobile; then the challenge the phone shows, the action and the OTP give the
 * 8-digit code the customer types on the phone. Only the actions the rules allow are offered
 * (offlineCodeActionsOf); a lock code asks why, as a lock does (LockReasonPicker).
 */
const OfflineCodeForm = ({ customerId, facts, onClose }: TOfflineCodeFormProps) => {
  const { t } = useTranslation();
  const otp = useUserOtp('BYPASS_CODE');
  const [getOfflineCode, codeState] = useGetOfflineCodeMutation();
  const [result, setResult] = useState<TOfflineCode | null>(null);
  const actions = offlineCodeActionsOf(facts);
  const form = useForm<TOfflineCodeForm, unknown, TOfflineCodeForm>({
    resolver: offlineCodeResolver,
    defaultValues: { challenge: '', action: actions[0] ?? 'unlock', otp: '' },
  });
  const action = form.watch('action');
  const reason = useLockReason(facts, gateIntentOf(action));

  const submit = (event: FormEvent) => {
    // Both checks run, so every field's error shows at once.
    const given = reason.check();
    void form.handleSubmit(async (values) => {
      if (given === null) return;
      // The request schema has the last word on what is sent.
      const request = ZOfflineLockUnlockRequest.parse({ customer_id: customerId, ...values, ...given });
      const answer = await getOfflineCode(request);
      if (answer.data) {
        setResult(answer.data);
        return;
      }
      // Other failures are toasted by the store; the server's words about a field go under it.
      if (!isApiError(answer.error)) return;
      applyServerFieldErrors(answer.error, form.setError, formFieldOf);
      reason.showServerErrors(answer.error);
    })(event);
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
    <form noValidate onSubmit={submit}>
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1}>
          <DevOtpBanner devOtp={otp.sent.devOtp} testId="offline-code-dev-otp" />
          <DialogContentText>{t('offlineCode.otpSent')}</DialogContentText>
          <Controller
            control={form.control}
            name="challenge"
            render={({ field, fieldState }) => {
              const message = fieldErrorText(fieldState.error, () => t('offlineCode.invalidChallenge'));
              return (
                <TextField
                  label={t('offlineCode.challenge')}
                  name={field.name}
                  value={field.value}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  onChange={(event) =>
                    field.onChange(onlyDigits(event.target.value, OFFLINE_CHALLENGE_DIGITS))
                  }
                  error={Boolean(message)}
                  helperText={message ?? t('offlineCode.challengeHelp')}
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
              );
            }}
          />
          <Controller
            control={form.control}
            name="action"
            render={({ field }) => (
              <TextField
                select
                label={t('offlineCode.action')}
                name={field.name}
                value={field.value}
                inputRef={field.ref}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value as TOfflineCodeAction)}
                helperText=" "
                fullWidth
                slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'offline-code-action' } }}
              >
                {actions.map((option) => (
                  <option key={option} value={option}>
                    {t(`offlineCode.actions.${option}`)}
                  </option>
                ))}
              </TextField>
            )}
          />
          {reason.field ? <LockReasonPicker {...reason.field} /> : null}
          <Controller
            control={form.control}
            name="otp"
            render={({ field, fieldState }) => (
              <UserOtpField
                value={field.value}
                onChange={field.onChange}
                error={fieldErrorText(fieldState.error, () => t('validation.invalidOtp'))}
                testId="offline-code-otp"
              />
            )}
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

/**
 * The "Offline code" button of customer_details and its dialog; `facts` (commandFactsOf) say which
 * codes the rules allow.
 */
export const OfflineCodeButton = ({ customerId, facts }: { customerId: number; facts: TCommandFacts }) => {
  const { t } = useTranslation();
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
      <FormDialog isOpen={isOpen} onClose={close} title={t('offlineCode.title')}>
        <OfflineCodeForm customerId={customerId} facts={facts} onClose={close} />
      </FormDialog>
    </>
  );
};
