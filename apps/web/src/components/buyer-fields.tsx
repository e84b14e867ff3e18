import { MOBILE_PREFIX } from '@kisht/domain/common/identifiers';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { Control } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldErrorText, fieldMessageKey, type TValidationKey } from '../lib/form-errors';
import { toLocalMobileDigits } from '../lib/mobile-input';

/** The buyer's fields of a plan sale as the form holds them; a form may leave out the email. */
export type TBuyerFieldValues = { firstName: string; lastName: string; mobile: string; email?: string };

/** The data-testid of each field's input; the email field shows only when it has one. */
export type TBuyerFieldTestIds = { firstName: string; lastName: string; mobile: string; email?: string };

type TBuyerFieldName = keyof TBuyerFieldValues;

/** What each field's problem must be when the domain schema's message is not one the app words. */
const FIELD_FALLBACK: Record<TBuyerFieldName, TValidationKey> = {
  firstName: 'validation.tooLong',
  lastName: 'validation.tooLong',
  email: 'validation.invalidEmail',
  mobile: 'validation.invalidMobile',
};

/** Per field: whether it is required, and the input's own attributes. */
const FIELD_INPUT: Record<TBuyerFieldName, { isRequired: boolean; htmlInput: Record<string, string> }> = {
  firstName: { isRequired: true, htmlInput: { autoComplete: 'given-name' } },
  lastName: { isRequired: false, htmlInput: { autoComplete: 'family-name' } },
  mobile: { isRequired: true, htmlInput: { inputMode: 'numeric', autoComplete: 'tel-national' } },
  email: { isRequired: false, htmlInput: { type: 'email', autoComplete: 'email' } },
};

type TBuyerFieldsProps<TForm extends TBuyerFieldValues, TOutput> = {
  /** The react-hook-form control of a form holding the buyer's fields. */
  control: Control<TForm, unknown, TOutput>;
  testIds: TBuyerFieldTestIds;
};

/**
 * The buyer of a plan sale (anti-hacking, family care, anti-theft, extended warranty): first name
 * (required), last name, mobile (required: 10 digits typed or pasted without +91, which shows
 * before them; spec §2) and, when the form asks it, email. Grid items, two a row from `sm` up, for
 * the form's Grid container; each field's error is worded as the app words the domain schema's
 * (spec §5), or the server's own words.
 */
export const BuyerFields = <TForm extends TBuyerFieldValues, TOutput>({
  control,
  testIds,
}: TBuyerFieldsProps<TForm, TOutput>) => {
  const { t } = useTranslation();
  // Every TForm holds these fields; react-hook-form cannot see that through the generic.
  const buyerControl = control as unknown as Control<TBuyerFieldValues>;
  const names: TBuyerFieldName[] = ['firstName', 'lastName', 'mobile'];
  if (testIds.email !== undefined) names.push('email');

  return names.map((name) => (
    <Grid key={name} size={{ xs: 12, sm: 6 }}>
      <Controller
        control={buyerControl}
        name={name}
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            value={field.value ?? ''}
            onChange={(event) =>
              field.onChange(name === 'mobile' ? toLocalMobileDigits(event.target.value) : event.target.value)
            }
            label={t(`buyer.${name}`)}
            required={FIELD_INPUT[name].isRequired}
            fullWidth
            {...(name === 'mobile' ? { type: 'tel' } : {})}
            error={fieldState.error !== undefined}
            helperText={
              fieldErrorText(fieldState.error, (error) =>
                t(fieldMessageKey(error, field.value, FIELD_FALLBACK[name])),
              ) ?? ' '
            }
            slotProps={{
              ...(name === 'mobile'
                ? {
                    input: {
                      startAdornment: <InputAdornment position="start">{MOBILE_PREFIX}</InputAdornment>,
                    },
                  }
                : {}),
              htmlInput: { ...FIELD_INPUT[name].htmlInput, 'data-testid': testIds[name] },
            }}
          />
        )}
      />
    </Grid>
  ));
};
