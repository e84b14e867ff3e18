import { zodResolver } from '@hookform/resolvers/zod';
import { APP_TYPE_CODES } from '@kisht/domain/common/enums';
import { ZReturnKeysRequest } from '@kisht/domain/ledger/key-requests.schema';
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
import { useReturnKeysMutation } from '../key-requests-api';
import type { TParent } from '../parent';
import { KeyFields } from './key-fields';

/** The intro naming whom the keys go to (the actor's parent; issue 30). */
const INTRO_BY_PARENT = {
  retailer: 'keyRequests.return.introToRetailer',
  distributor: 'keyRequests.return.introToDistributor',
  organisation: 'keyRequests.return.introToOrganisation',
} as const satisfies Record<TParent, string>;

type TFormInput = z.input<typeof ZReturnKeysRequest>;
type TFormOutput = z.output<typeof ZReturnKeysRequest>;
const resolver = zodResolver<TFormInput, unknown, TFormOutput>(ZReturnKeysRequest);
const FIELDS = ['appType', 'quantity', 'note'] as const;
const fieldOf = (field: string) =>
  (FIELDS.find((known) => known === field) ?? null) as (typeof FIELDS)[number] | null;

type TReturnKeysDialogProps = {
  isOpen: boolean;
  /** Where the keys go back to: a mini-retailer's retailer, or a retailer's organisation. */
  parent: TParent;
  onClose: () => void;
};

/**
 * "Return keys" (issue 30): unused keys of one type go back to the actor's parent (POST
 * paths.keyRequests.returnKeys with the domain's ZReturnKeysRequest), leaving the balance at once.
 * Returning more than the balance holds is refused (409 naming the keys held), in the server's words.
 */
export const ReturnKeysDialog = ({ isOpen, parent, onClose }: TReturnKeysDialogProps) => {
  const { t } = useTranslation();
  return (
    <FormDialog
      isOpen={isOpen}
      onClose={onClose}
      title={t('keyRequests.return.title')}
      testId="key-return-dialog"
    >
      <ReturnKeysForm parent={parent} onClose={onClose} />
    </FormDialog>
  );
};

const ReturnKeysForm = ({ parent, onClose }: Omit<TReturnKeysDialogProps, 'isOpen'>) => {
  const { t } = useTranslation();
  const [returnKeys, { isLoading }] = useReturnKeysMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TFormInput, unknown, TFormOutput>({
    resolver,
    defaultValues: { appType: APP_TYPE_CODES[0], quantity: 1, note: '' },
  });

  const submit = form.handleSubmit(async ({ note, ...values }) => {
    setFailure(null);
    const result = await returnKeys({ ...values, ...(note ? { note } : {}) });
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, fieldOf)) return;
      setFailure(apiErrorMessage(result.error, t('keyRequests.failed')));
      return;
    }
    enqueueSnackbar(t('keyRequests.return.done', { count: values.quantity }), { variant: 'success' });
    onClose();
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t(INTRO_BY_PARENT[parent])}
          </Typography>
          <KeyFields control={form.control} testIdPrefix="key-return" />
          <DialogFormField
            control={form.control}
            name="note"
            label={t('keyRequests.return.note')}
            fallbackKey="validation.tooLong"
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'key-return-note' } }}
          />
          {failure && (
            <Alert severity="error" data-testid="key-return-failure">
              {failure}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="submit" variant="contained" loading={isLoading} data-testid="key-return-submit">
          {t('keyRequests.return.submit')}
        </Button>
      </DialogActions>
    </form>
  );
};
