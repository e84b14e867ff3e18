import { zodResolver } from '@hookform/resolvers/zod';
import { AppErrorCode } from '@kisht/domain/common/errors';
import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import type { TSendEmiAlertRequest } from '@kisht/domain/emi/emi.schema';
import { ZSendEmiAlertRequest } from '@kisht/domain/emi/emi.schema';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import type { AlertColor } from '@mui/material/Alert';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { memo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { asApiError } from '../api-error';
import { useSendEmiAlertMutation } from '../emi-api';

/** Longest extra message the reminder takes (domain ZSendEmiAlertRequest). */
export const EMI_ALERT_MESSAGE_MAX_LENGTH = 160;

/** Refusals the card explains in place (the store toasts every failure as well). */
const EXPLAINED_CODES = [AppErrorCode.DEVICE_NOT_ENROLLED, AppErrorCode.NOTHING_DUE] as const;
type TExplainedCode = (typeof EXPLAINED_CODES)[number];

const isExplainedCode = (code: string | null | undefined): code is TExplainedCode =>
  EXPLAINED_CODES.some((explained) => explained === code);

type TOutcome = { command: TDeviceCommand } | { refusal: TExplainedCode };

const STATE_SEVERITY: Record<TDeviceCommand['state'], AlertColor> = {
  queued: 'info',
  sent: 'info',
  received: 'info',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
  expired: 'warning',
};

type TAlertPayload = z.output<typeof ZSendEmiAlertRequest>;

/** What the server's refusal means for the retailer, and how it shows. */
const REFUSAL_DISPLAY: Record<
  TExplainedCode,
  { key: 'emi.alert.notEnrolled' | 'emi.alert.nothingDue'; severity: AlertColor }
> = {
  DEVICE_NOT_ENROLLED: { key: 'emi.alert.notEnrolled', severity: 'warning' },
  NOTHING_DUE: { key: 'emi.alert.nothingDue', severity: 'info' },
};

/**
 * "Send EMI reminder" on emi_details: queues the emi_alert command (send_emialert), which shows the
 * amount due and its date, plus an optional message, on the customer's phone. Afterwards it says
 * where the command got to (queued, sent, done…). A phone that has not enrolled (DEVICE_NOT_ENROLLED)
 * and a loan with nothing due (NOTHING_DUE) are explained in place.
 * Memoised: typing in the page's payment form does not re-render it.
 */
export const EmiReminderCard = memo(({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const [sendEmiAlert, { isLoading }] = useSendEmiAlertMutation();
  const [outcome, setOutcome] = useState<TOutcome | null>(null);
  const form = useForm<TSendEmiAlertRequest, unknown, TAlertPayload>({
    resolver: zodResolver(ZSendEmiAlertRequest),
    defaultValues: { customer_id: customerId, message: '' },
  });

  const submit = form.handleSubmit(async (payload) => {
    setOutcome(null);
    const result = await sendEmiAlert({
      customer_id: payload.customer_id,
      ...(payload.message ? { message: payload.message } : {}),
    });
    if (result.error) {
      // The store has toasted the server's message; two refusals are worth explaining here.
      const code = asApiError(result.error)?.code;
      if (isExplainedCode(code)) setOutcome({ refusal: code });
      return;
    }
    setOutcome({ command: result.data });
    form.reset({ customer_id: customerId, message: '' });
  });

  const renderOutcome = () => {
    if (!outcome) return null;
    if ('refusal' in outcome) {
      const display = REFUSAL_DISPLAY[outcome.refusal];
      return (
        <Alert severity={display.severity} data-testid="emi-alert-refused" data-code={outcome.refusal}>
          {t(display.key)}
        </Alert>
      );
    }
    const { command } = outcome;
    return (
      <Alert
        severity={STATE_SEVERITY[command.state]}
        role="status"
        data-testid="emi-alert-result"
        data-state={command.state}
      >
        {t(`emi.alert.states.${command.state}`)}
        {command.error ? ` ${t('emi.alert.error', { error: command.error })}` : null}
      </Alert>
    );
  };

  return (
    <Card data-testid="emi-alert-card">
      <CardContent>
        <Stack component="form" spacing={2} noValidate onSubmit={submit} aria-label={t('emi.alert.title')}>
          <div>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {t('emi.alert.title')}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              {t('emi.alert.hint')}
            </Typography>
          </div>
          <Controller
            control={form.control}
            name="message"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                inputRef={field.ref}
                id="emi-alert-message"
                label={t('emi.alert.message')}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error ? t('validation.tooLong') : t('emi.alert.messageHelper')}
                slotProps={{
                  htmlInput: {
                    maxLength: EMI_ALERT_MESSAGE_MAX_LENGTH,
                    autoComplete: 'off',
                    'data-testid': 'emi-alert-message',
                  },
                }}
              />
            )}
          />
          <Button
            type="submit"
            variant="outlined"
            startIcon={<NotificationsActiveIcon />}
            loading={isLoading}
            data-testid="emi-alert-send"
          >
            {t('emi.alert.send')}
          </Button>
          {renderOutcome()}
        </Stack>
      </CardContent>
    </Card>
  );
});
