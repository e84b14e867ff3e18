import { zodResolver } from '@hookform/resolvers/zod';
import { type TSignupRequestForm, ZSignupRequestForm } from '@kisht/domain/joining/joining.schema';
import { JOINING_ROLES } from '@kisht/domain/network/network.rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
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
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { toLocalMobileDigits } from '../../../lib/mobile-input';
import { useRequestSignupMutation } from '../joining-api';

type TFormOutput = z.output<typeof ZSignupRequestForm>;
type TField = keyof TSignupRequestForm;
/** The text fields, in order (the role is a choice above them). */
type TTextField = Exclude<TField, 'role'>;

const resolver = zodResolver<TSignupRequestForm, unknown, TFormOutput>(ZSignupRequestForm);
const FIELDS: readonly TTextField[] = ['name', 'shopName', 'mobile', 'city', 'parentMobile'];
/** Mobile-number fields: 10 digits, shown after +91. */
const MOBILE_FIELDS: readonly TTextField[] = ['mobile', 'parentMobile'];
const PROBLEM: Record<TTextField, TValidationKey> = {
  name: 'validation.tooLong',
  shopName: 'validation.tooLong',
  mobile: 'validation.invalidMobile',
  city: 'validation.tooLong',
  parentMobile: 'validation.invalidMobile',
};
const formFieldOf = (field: string): TField | null =>
  field === 'role' || FIELDS.includes(field as TTextField) ? (field as TField) : null;

type TJoinRequestDialogProps = { orgId: number; open: boolean; onClose: () => void };

/**
 * "Ask to join" (issue 13 Joining): name, shop name, mobile (10 digits, sent with +91) and city,
 * validated with the domain's ZSignupRequestForm; on success the server's thank-you message. Issue
 * 30: it joins as a retailer or a distributor, under the organisation or under the distributor whose
 * mobile it gives (optional), who then approves it.
 */
export const JoinRequestDialog = ({ orgId, open, onClose }: TJoinRequestDialogProps) => {
  const { t } = useTranslation();
  const [requestSignup, { isLoading }] = useRequestSignupMutation();
  const [isSent, setIsSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TSignupRequestForm, unknown, TFormOutput>({
    resolver,
    defaultValues: { name: '', shopName: '', mobile: '', city: '', role: 'retailer', parentMobile: '' },
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
      setFailure(apiErrorMessage(result.error, t('joining.failed')));
      return;
    }
    setIsSent(true);
  });

  const labels: Record<TTextField, string> = {
    name: t('joining.name'),
    shopName: t('joining.shopName'),
    mobile: t('joining.mobile'),
    city: t('joining.city'),
    parentMobile: t('joining.parentMobile'),
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
              <Controller
                control={form.control}
                name="role"
                render={({ field, fieldState }) => (
                  <FormControl error={Boolean(fieldState.error)}>
                    <FormLabel id="join-role-label">{t('joining.role.label')}</FormLabel>
                    <RadioGroup {...field} row aria-labelledby="join-role-label" data-testid="join-role">
                      {JOINING_ROLES.map((role) => (
                        <FormControlLabel
                          key={role}
                          value={role}
                          control={
                            <Radio slotProps={{ input: { 'data-testid': `join-role-${role}` } as object }} />
                          }
                          label={t(`joining.role.${role}`)}
                        />
                      ))}
                    </RadioGroup>
                    {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
                  </FormControl>
                )}
              />
              {FIELDS.map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field, fieldState }) => (
                    <TextField
                      {...field}
                      value={field.value ?? ''}
                      onChange={(event) =>
                        field.onChange(
                          MOBILE_FIELDS.includes(name)
                            ? toLocalMobileDigits(event.target.value)
                            : event.target.value,
                        )
                      }
                      label={labels[name]}
                      required={name !== 'parentMobile'}
                      fullWidth
                      error={Boolean(fieldState.error)}
                      helperText={
                        fieldErrorText(fieldState.error, (error) =>
                          t(fieldMessageKey(error, field.value ?? '', PROBLEM[name])),
                        ) ?? (name === 'parentMobile' ? t('joining.parentMobileHint') : undefined)
                      }
                      slotProps={{
                        htmlInput: {
                          'data-testid': `join-${name}`,
                          ...(name === 'mobile'
                            ? { inputMode: 'numeric', autoComplete: 'tel-national' }
                            : name === 'parentMobile'
                              ? { inputMode: 'numeric' }
                              : {}),
                        },
                        ...(MOBILE_FIELDS.includes(name)
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
