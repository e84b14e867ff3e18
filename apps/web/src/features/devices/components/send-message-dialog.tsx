import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_TEXT_MAX,
  MESSAGE_TITLE_MAX,
  type TSendCustomerMessageRequest,
  ZSendCustomerMessageRequest,
} from '@kisht/domain/messages/messages.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import type { Path } from 'react-hook-form';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { DialogFormField } from '../../../components/dialog-form-field';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { useSendCustomerMessageMutation } from '../message-api';

type TMessagePayload = z.output<typeof ZSendCustomerMessageRequest>;
const messageResolver = zodResolver<TSendCustomerMessageRequest, unknown, TMessagePayload>(
  ZSendCustomerMessageRequest,
);
const MESSAGE_FIELDS: ReadonlyArray<Path<TSendCustomerMessageRequest>> = ['title', 'message'];
const formFieldOf = (requestField: string) => MESSAGE_FIELDS.find((field) => field === requestField) ?? null;

export type TSendMessageDialogProps = {
  customerId: number;
  /** Who it goes to, named in the dialog's text. */
  customerName?: string | undefined;
  isOpen: boolean;
  onClose: () => void;
  /** What the form starts with (the dashboard's birthday wishes). */
  initial?: { title?: string; message?: string } | undefined;
};

/**
 * send_fcm_retailer_to_customer (issue 16): a text message (an optional title, up to 60
 * characters, and the message, up to 500) shown on the customer's phone as a show_message
 * command. Checked with the request's own domain schema; a server field error lands under its
 * field, anything else (not enrolled, the day's limit) above the form.
 */
export const SendMessageDialog = ({ isOpen, onClose, ...props }: TSendMessageDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('customerMessage.title')}
      testId="send-message-dialog"
    >
      <SendMessageForm {...props} onClose={onClose} />
    </FormDialog>
  );
};

const SendMessageForm = ({
  customerId,
  customerName,
  initial,
  onClose,
}: Omit<TSendMessageDialogProps, 'isOpen'>) => {
  const { t } = useTranslation();
  const [send, { isLoading }] = useSendCustomerMessageMutation();
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const form = useForm<TSendCustomerMessageRequest, unknown, TMessagePayload>({
    resolver: messageResolver,
    defaultValues: { customer_id: customerId, title: initial?.title ?? '', message: initial?.message ?? '' },
    mode: 'onTouched',
  });
  const message = useWatch({ control: form.control, name: 'message' }) ?? '';

  const save = form.handleSubmit(async (payload) => {
    setServerMessage(null);
    const result = await send(payload);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, formFieldOf) : false;
      if (!isOnField) setServerMessage(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    enqueueSnackbar(t('customerMessage.sent'), { variant: 'success' });
    onClose();
  });

  return (
    <form noValidate onSubmit={(event) => void save(event)} data-testid="send-message-form">
      <DialogContent sx={{ pt: 1 }}>
        <Stack spacing={1}>
          <DialogContentText>
            {customerName
              ? t('customerMessage.introNamed', { name: customerName })
              : t('customerMessage.intro')}
          </DialogContentText>
          {serverMessage ? (
            <Alert severity="error" data-testid="send-message-error">
              {serverMessage}
            </Alert>
          ) : null}
          <DialogFormField
            control={form.control}
            name="title"
            id="send-message-title"
            label={t('customerMessage.titleLabel')}
            helperText={t('customerMessage.optional')}
            fallbackKey="validation.tooLong"
            slotProps={{ htmlInput: { maxLength: MESSAGE_TITLE_MAX, 'data-testid': 'send-message-title' } }}
            sx={{ mt: 1 }}
          />
          <DialogFormField
            control={form.control}
            name="message"
            id="send-message-text"
            label={t('customerMessage.messageLabel')}
            helperText={t('customerMessage.counter', { count: message.length, max: MESSAGE_TEXT_MAX })}
            fallbackKey="validation.tooLong"
            required
            multiline
            minRows={3}
            slotProps={{ htmlInput: { maxLength: MESSAGE_TEXT_MAX, 'data-testid': 'send-message-text' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={isLoading} data-testid="send-message-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="send-message-submit">
          {t('customerMessage.send')}
        </Button>
      </DialogActions>
    </form>
  );
};
