import { zodResolver } from '@hookform/resolvers/zod';
import { addDays, istDate } from '@kisht/domain/common/time';
import {
  type TRetailer,
  type TUpdateOwnProfileRequest,
  ZUpdateOwnProfileRequest,
} from '@kisht/domain/retailers/retailers.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { applyServerFieldErrors, fieldErrorText, fieldMessageKey } from '../../../lib/form-errors';
import { formatDate } from '../../../lib/format';
import { isApiError } from '../../../lib/http/base-query';
import { useUpdateOwnProfileMutation } from '../retailers-api';

type TOwnProfilePayload = z.output<typeof ZUpdateOwnProfileRequest>;
const ownProfileResolver = zodResolver<TUpdateOwnProfileRequest, unknown, TOwnProfilePayload>(
  ZUpdateOwnProfileRequest,
);

/**
 * The signed-in retailer's own date of birth on retailer_profile (issue 16: the dashboard
 * celebrates it): shown +05:30 as DD-MM-YYYY, set or changed with a date field (a past date, the
 * request's own schema), or cleared by saving it empty.
 */
export const OwnBirthdayRow = ({ retailer }: { retailer: TRetailer }) => {
  const { t } = useTranslation();
  const [isEditing, setIsEditing] = useState(false);
  if (!isEditing) {
    return (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Stack>
          <Typography variant="body2" color="textSecondary">
            {t('birthday.dateOfBirth')}
          </Typography>
          <Typography variant="body2" data-testid="retailer-date-of-birth">
            {retailer.dateOfBirth ? formatDate(retailer.dateOfBirth) : t('birthday.notSet')}
          </Typography>
        </Stack>
        <Button size="small" onClick={() => setIsEditing(true)} data-testid="retailer-date-of-birth-edit">
          {retailer.dateOfBirth ? t('birthday.change') : t('birthday.set')}
        </Button>
      </Stack>
    );
  }
  return <OwnBirthdayForm retailer={retailer} onDone={() => setIsEditing(false)} />;
};

const OwnBirthdayForm = ({ retailer, onDone }: { retailer: TRetailer; onDone: () => void }) => {
  const { t } = useTranslation();
  const [save, { isLoading }] = useUpdateOwnProfileMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TUpdateOwnProfileRequest, unknown, TOwnProfilePayload>({
    resolver: ownProfileResolver,
    defaultValues: { dateOfBirth: retailer.dateOfBirth },
  });
  const submit = form.handleSubmit(async (payload) => {
    setProblem(null);
    const result = await save(payload);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error
        ? applyServerFieldErrors(error, form.setError, (field) => (field === 'dateOfBirth' ? field : null))
        : false;
      if (!isOnField) setProblem(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    enqueueSnackbar(t('birthday.saved'), { variant: 'success' });
    onDone();
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="own-birthday-form">
      <Stack spacing={1}>
        <Controller
          control={form.control}
          name="dateOfBirth"
          render={({ field, fieldState }) => {
            const message = fieldErrorText(fieldState.error, (error) =>
              t(fieldMessageKey(error, field.value ?? '', 'validation.dateOfBirthInPast')),
            );
            return (
              <TextField
                type="date"
                label={t('birthday.dateOfBirth')}
                name={field.name}
                value={field.value ?? ''}
                inputRef={field.ref}
                onBlur={field.onBlur}
                onChange={(event) => field.onChange(event.target.value || null)}
                error={Boolean(message)}
                helperText={message ?? t('birthday.help')}
                fullWidth
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { max: addDays(istDate(), -1), 'data-testid': 'own-birthday-input' },
                }}
              />
            );
          }}
        />
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onDone} disabled={isLoading}>
            {t('birthday.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={isLoading} data-testid="own-birthday-save">
            {t('birthday.save')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
};
