import { zodResolver } from '@hookform/resolvers/zod';
import { type TSignupRequestForm, ZSignupRequestForm } from '@kisht/domain/joining/joining.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  applyServerFieldErrors,
  fieldErrorText,
  fieldMessageKey,
  type TValidationKey,
} from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { useRequestSignupMutation } from '../joining-api';

type TFormOutput = z.output<typeof ZSignupRequestForm>;
type TField = keyof TSignupRequestForm;

const resolver = zodResolver<TSignupRequestForm, unknown, TFormOutput>(ZSignupRequestForm);
const FIELDS: readonly TField[] = ['name', 'shopName', 'mobile', 'city'];
const PROBLEM: Record<TField, TValidationKey> = {
  name: 'validation.tooLong',
  shopName: 'validation.tooLong',
  mobile: 'validation.invalidMobile',
  city: 'validation.tooLong',
};
const formFieldOf = (field: string): TField | null =>
  FIELDS.includes(field as TField) ? (field as TField) : null;

type TJoinRequestDialogProps = { orgId: number; open: boolean; onClose: () => void };

/**
 * "Ask to join" (issue 13 Joining): name, shop name, mobile (10 digits, sent with +91) and city,
 * validated with the domain's ZSignupRequestForm; on success the server's thank-you message.
 */
export const JoinRequestDialog = ({ orgId, open, onClose }: TJoinRequestDialogProps) => {
  const { t } = useTranslation();
  const [requestSignup, { isLoading }] = useRequestSignupMutation();
  const [isSent, setIsSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TSignupRequestForm, unknown, TFormOutput>({
    resolver,
    defaultValues: { name: '', shopName: '', mobile: '', city: '' },
  });

  const close = () => {
    onClose();
    setIsSent(false);
    setFailure(null);
    form.reset();
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await requestSignup({ orgId, ...values });
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, formFieldOf))
        return;
      setFailure(isApiError(result.error) ? result.error.message : t('joining.failed'));
      return;
    }
    setIsSent(true);
  });

  const labels: Record<TField, string> = {
    name: t('joining.name'),
    shopName: t('joining.shopName'),
    mobile: t('joining.mobile'),
    city: t('joining.city'),
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" data-testid="join-dialog">
      <DialogTitle>{t('joining.title')}</DialogTitle>
      {isSent ? (
        <>
          <DialogContent>
            <Alert severity="success" data-testid="join-success">
              {t('joining.thanks')}
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} data-testid="join-done">
              {t('joining.close')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <DialogContent>
            <Stack spacing={2}>
              <Typography variant="body2" color="text.secondary">
                {t('joining.intro')}
              </Typography>
              {FIELDS.map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field, fieldState }) => (
                    <TextField
                      {...field}
                      onChange={(event) =>
                        field.onChange(
                          name === 'mobile' ? toLocalMobileDigits(event.target.value) : event.target.value,
                        )
                      }
                      label={labels[name]}
                      required
                      fullWidth
                      error={Boolean(fieldState.error)}
                      helperText={fieldErrorText(fieldState.error, (error) =>
                        t(fieldMessageKey(error, field.value, PROBLEM[name])),
                      )}
                      slotProps={{
                        htmlInput: {
                          'data-testid': `join-${name}`,
                          ...(name === 'mobile'
                            ? { inputMode: 'numeric', autoComplete: 'tel-national' }
                            : {}),
                        },
                        ...(name === 'mobile'
                          ? {
                              input: {
                                startAdornment: <InputAdornment position="start">+91</InputAdornment>,
                              },
                            }
                          : {}),
                      }}
                    />
                  )}
                />
              ))}
              {failure && <Alert severity="error">{failure}</Alert>}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('joining.cancel')}</Button>
            <Button type="submit" variant="contained" loading={isLoading} data-testid="join-submit">
              {t('joining.submit')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
};
