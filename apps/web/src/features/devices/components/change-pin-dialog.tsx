import { zodResolver } from '@hookform/resolvers/zod';
import type { TCommandFacts } from '@kisht/domain/devices/command-rules';
import {
  DEVICE_PIN_MAX_DIGITS,
  DEVICE_PIN_MIN_DIGITS,
  devicePinProblem,
} from '@kisht/domain/devices/device-pin';
import { ZChangeDevicePinRequest } from '@kisht/domain/devices/devices.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ParseKeys } from 'i18next';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent } from 'react';
import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors, SERVER_ERROR_TYPE } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { useChangeDevicePinMutation } from '../device-api';
import { LockReasonPicker, useLockReason } from './lock-reason-picker';
import { DevOtpBanner, onlyDigits, SendOtpStep, USER_OTP_LENGTH, useUserOtp } from './user-otp';

/** The PIN's digit bounds, for the messages that name them. */
const PIN_BOUNDS = { min: DEVICE_PIN_MIN_DIGITS, max: DEVICE_PIN_MAX_DIGITS };

/** What the PIN form holds. */
export type TChangePinForm = { pin: string; confirmPin: string; otp: string };

/**
 * The translation key of why a PIN is refused, or null: the domain's devicePinProblem decides (the
 * server refuses the same PINs), and the key says which of its two reasons it is, in words the
 * app can translate.
 */
export const pinProblemKey = (pin: string): ParseKeys | null => {
  if (!devicePinProblem(pin)) return null;
  const hasRightLength = new RegExp(`^\\d{${DEVICE_PIN_MIN_DIGITS},${DEVICE_PIN_MAX_DIGITS}}$`).test(pin);
  return hasRightLength ? 'changePin.errors.easy' : 'changePin.errors.length';
};

/**
 * The form's check, with translation keys as messages: the PIN by the domain's rule, the second
 * PIN the same as the first, and the OTP by the request schema's own rule.
 */
const changePinFormSchema = z
  .object({ pin: z.string(), confirmPin: z.string(), otp: z.string() })
  .superRefine((values, ctx) => {
    const pinKey = pinProblemKey(values.pin);
    if (pinKey) ctx.addIssue({ code: 'custom', path: ['pin'], message: pinKey });
    if (values.confirmPin !== values.pin) {
      ctx.addIssue({ code: 'custom', path: ['confirmPin'], message: 'changePin.errors.mismatch' });
    }
    if (!ZChangeDevicePinRequest.shape.otp.safeParse(values.otp).success) {
      ctx.addIssue({ code: 'custom', path: ['otp'], message: 'validation.invalidOtp' });
    }
  });
const changePinResolver = zodResolver<TChangePinForm, unknown, TChangePinForm>(changePinFormSchema);

/** The request fields the server may name in its field errors, as the form's fields. */
const SERVER_FIELDS: ReadonlyArray<Path<TChangePinForm>> = ['pin', 'otp'];
const formFieldOf = (requestField: string) => SERVER_FIELDS.find((field) => field === requestField) ?? null;

type TChangePinDialogProps = {
  customerId: number;
  /** What the command gate judges the customer by (commandFactsOf): the reason a new PIN needs. */
  facts: TCommandFacts;
  isOpen: boolean;
  onClose: () => void;
};

/**
 * change_device_pinV1: a new screen-lock PIN for the customer's phone (a customer who forgot
 * theirs, a phone handed back). First an OTP of purpose BYPASS_CODE to the user's own mobile; then
 * the PIN twice (masked, number pad) and the OTP. The PIN is checked with the domain's rule
 * (devicePinProblem) before it is sent, and it is never shown again: the history says "Change PIN".
 * A new PIN leaves the customer only a lock screen, so it asks why as a lock does (issue 25:
 * LockReasonPicker, a category required when nothing is overdue); the actions tab does not offer
 * it when the rules refuse it (a paid-up or released phone).
 */
export const ChangePinDialog = ({ customerId, facts, isOpen, onClose }: TChangePinDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog isOpen={isOpen} onClose={onClose} title={t('changePin.title')} testId="change-pin-dialog">
      <ChangePinForm customerId={customerId} facts={facts} onClose={onClose} />
    </FormDialog>
  );
};

type TPinFieldProps = {
  form: ReturnType<typeof useForm<TChangePinForm, unknown, TChangePinForm>>;
  name: Path<TChangePinForm>;
  label: string;
  helperText: string;
  maxDigits: number;
  isSecret: boolean;
  autoComplete: string;
  autoFocus?: boolean;
};

/** A digits-only field of the PIN form (the PINs masked), with its translated or server error. */
const PinField = ({
  form,
  name,
  label,
  helperText,
  maxDigits,
  isSecret,
  autoComplete,
  autoFocus,
}: TPinFieldProps) => {
  const { t } = useTranslation();
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => {
        const { error } = fieldState;
        const message = !error
          ? null
          : error.type === SERVER_ERROR_TYPE
            ? (error.message ?? null)
            : t((error.message ?? 'validation.invalidValue') as ParseKeys, PIN_BOUNDS);
        return (
          <TextField
            id={`change-pin-${name}`}
            name={field.name}
            label={label}
            type={isSecret ? 'password' : 'text'}
            value={field.value}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => field.onChange(onlyDigits(event.target.value, maxDigits))}
            error={Boolean(message)}
            helperText={message ?? helperText}
            required
            fullWidth
            autoFocus={autoFocus}
            slotProps={{
              htmlInput: {
                inputMode: 'numeric',
                pattern: '[0-9]*',
                autoComplete,
                maxLength: maxDigits,
                'data-testid': `change-pin-${name}`,
              },
            }}
          />
        );
      }}
    />
  );
};

type TChangePinFormProps = { customerId: number; facts: TCommandFacts; onClose: () => void };

const ChangePinForm = ({ customerId, facts, onClose }: TChangePinFormProps) => {
  const { t } = useTranslation();
  const otp = useUserOtp('BYPASS_CODE');
  const reason = useLockReason(facts, 'change_pin');
  const [changeDevicePin, changeState] = useChangeDevicePinMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const form = useForm<TChangePinForm, unknown, TChangePinForm>({
    resolver: changePinResolver,
    defaultValues: { pin: '', confirmPin: '', otp: '' },
    mode: 'onTouched',
  });

  const save = (event: FormEvent) => {
    // Both checks run, so every field's error shows at once.
    const given = reason.check();
    void form.handleSubmit(async (values) => {
      if (given === null) return;
      setServerMessage(null);
      // The request schema has the last word on what is sent (the same rules, from the domain).
      const request = ZChangeDevicePinRequest.parse({
        customer_id: customerId,
        pin: values.pin,
        otp: values.otp,
        ...given,
      });
      const result = await changeDevicePin(request);
      if (result.error) {
        const error = isApiError(result.error) ? result.error : null;
        const isOnField = error ? applyServerFieldErrors(error, form.setError, formFieldOf) : false;
        const isOnReason = reason.showServerErrors(error);
        if (!isOnField && !isOnReason) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
        return;
      }
      enqueueSnackbar(t('changePin.sent'), { variant: 'info' });
      onClose();
    })(event);
  };

  if (!otp.sent) {
    return (
      <SendOtpStep
        intro={
          <>
            <DialogContentText>{t('changePin.intro')}</DialogContentText>
            <DialogContentText sx={{ mt: 1 }}>{t('changePin.otpIntro')}</DialogContentText>
          </>
        }
        otp={otp}
        onClose={onClose}
        sendTestId="change-pin-send-otp"
      />
    );
  }

  return (
    <form noValidate onSubmit={save} data-testid="change-pin-form">
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1.5}>
          <DevOtpBanner devOtp={otp.sent.devOtp} testId="change-pin-dev-otp" />
          {serverMessage ? (
            <Alert severity="error" data-testid="change-pin-error">
              {serverMessage}
            </Alert>
          ) : null}
          <DialogContentText>{t('changePin.otpSent')}</DialogContentText>
          <PinField
            form={form}
            name="pin"
            label={t('changePin.pin')}
            helperText={t('changePin.pinHelp', PIN_BOUNDS)}
            maxDigits={DEVICE_PIN_MAX_DIGITS}
            isSecret
            autoComplete="new-password"
            autoFocus
          />
          <PinField
            form={form}
            name="confirmPin"
            label={t('changePin.confirmPin')}
            helperText=" "
            maxDigits={DEVICE_PIN_MAX_DIGITS}
            isSecret
            autoComplete="new-password"
          />
          {reason.field ? <LockReasonPicker {...reason.field} /> : null}
          <PinField
            form={form}
            name="otp"
            label={t('otp.label')}
            helperText=" "
            maxDigits={USER_OTP_LENGTH}
            isSecret={false}
            autoComplete="one-time-code"
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={changeState.isLoading}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          loading={changeState.isLoading}
          data-testid="change-pin-submit"
        >
          {t('changePin.submit')}
        </Button>
      </DialogActions>
    </form>
  );
};
