import { zodResolver } from '@hookform/resolvers/zod';
import { APP_TYPE_CODES } from '@kisht/domain/common/enums';
import { ZCreateKeyRequest } from '@kisht/domain/ledger/key-requests.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { DialogFormField } from '../../../components/dialog-form-field';
import { FormDialog } from '../../../components/form-dialog';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { useCreateKeyRequestMutation } from '../key-requests-api';
import type { TParent } from '../parent';
import { KeyFields } from './key-fields';

/** The intro naming whom the keys go to (the actor's parent; issue 30). */
const INTRO_BY_PARENT = {
  retailer: 'keyRequests.form.introToRetailer',
  distributor: 'keyRequests.form.introToDistributor',
  organisation: 'keyRequests.form.introToOrganisation',
} as const satisfies Record<TParent, string>;

type TFormInput = z.input<typeof ZCreateKeyRequest>;
type TFormOutput = z.output<typeof ZCreateKeyRequest>;
const resolver = zodResolver<TFormInput, unknown, TFormOutput>(ZCreateKeyRequest);
const FIELDS = ['appType', 'quantity', 'paymentReference'] as const;
const fieldOf = (field: string) =>
  (FIELDS.find((known) => known === field) ?? null) as (typeof FIELDS)[number] | null;

type TRequestKeysDialogProps = {
  isOpen: boolean;
  /** Whom the request goes to: a mini-retailer asks its retailer, a retailer its organisation. */
  parent: TParent;
  onClose: () => void;
  /** After the request was sent (it heads the `sent` list). */
  onSent: () => void;
};

/**
 * "Request keys" (issue 30): the key type, the number of keys and, optionally, the reference of
 * the payment made for them, sent to the actor's parent (POST paths.keyRequests.list) with the
 * domain's ZCreateKeyRequest. The parent's price is the one it has set when the request arrives.
 */
export const RequestKeysDialog = ({ isOpen, parent, onClose, onSent }: TRequestKeysDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('keyRequests.form.title')}
      testId="key-request-dialog"
    >
      <RequestKeysForm parent={parent} onClose={onClose} onSent={onSent} />
    </FormDialog>
  );
};

const RequestKeysForm = ({ parent, onClose, onSent }: Omit<TRequestKeysDialogProps, 'isOpen'>) => {
  const { t } = useTranslation();
  const [create, { isLoading }] = useCreateKeyRequestMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TFormInput, unknown, TFormOutput>({
    resolver,
    defaultValues: { appType: APP_TYPE_CODES[0], quantity: 1, paymentReference: '' },
  });

  const submit = form.handleSubmit(async ({ paymentReference, ...values }) => {
    setFailure(null);
    const result = await create({ ...values, ...(paymentReference ? { paymentReference } : {}) });
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, fieldOf)) return;
      setFailure(apiErrorMessage(result.error, t('keyRequests.failed')));
      return;
    }
    enqueueSnackbar(t('keyRequests.form.sent'), { variant: 'success' });
    onSent();
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t(INTRO_BY_PARENT[parent])}
          </Typography>
          <KeyFields control={form.control} testIdPrefix="key-request" />
          <DialogFormField
            control={form.control}
            name="paymentReference"
            label={t('keyRequests.form.reference')}
            helperText={t('keyRequests.form.referenceHint')}
            fallbackKey="validation.tooLong"
            slotProps={{ htmlInput: { maxLength: 80, 'data-testid': 'key-request-reference' } }}
          />
          {failure && (
            <Alert severity="error" data-testid="key-request-failure">
              {failure}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="key-request-submit">
          {t('keyRequests.form.submit')}
        </Button>
      </DialogActions>
    </form>
  );
};
