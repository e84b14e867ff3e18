import { APP_TYPE_CODES } from '@kisht/domain/common/enums';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { appTypeName } from '../../../lib/app-type-name';
import { fieldErrorText } from '../../../lib/form-errors';
import { wholeNumberInputProps } from '../../../lib/whole-number-input';

/** The fields a form of keys shares: an app_type and a number of keys. */
type TKeyFieldValues = FieldValues & { appType: number; quantity: number };

type TKeyFieldsProps<TValues extends TKeyFieldValues, TParsed extends FieldValues> = {
  control: Control<TValues, unknown, TParsed>;
  /** Prefix of the fields' data-testid (`key-request` → `key-request-app-type`, `key-request-quantity`). */
  testIdPrefix: string;
};

/**
 * The key type (a select of the spec §1 app_types, by their translated names) and the number of
 * keys (whole digits only; empty is refused by the domain's ZKeyQuantity), for the request and
 * return forms.
 */
export const KeyFields = <TValues extends TKeyFieldValues, TParsed extends FieldValues>({
  control,
  testIdPrefix,
}: TKeyFieldsProps<TValues, TParsed>) => {
  const { t } = useTranslation();
  return (
    <>
      <Controller
        control={control}
        name={'appType' as Path<TValues>}
        render={({ field, fieldState }) => (
          <TextField
            select
            label={t('keyRequests.form.appType')}
            value={field.value}
            onChange={(event) => field.onChange(Number(event.target.value))}
            error={Boolean(fieldState.error)}
            helperText={fieldErrorText(fieldState.error, () => t('validation.invalidValue'))}
            slotProps={{ htmlInput: { 'data-testid': `${testIdPrefix}-app-type` } }}
          >
            {APP_TYPE_CODES.map((code) => (
              <MenuItem key={code} value={code}>
                {appTypeName(t, code)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name={'quantity' as Path<TValues>}
        render={({ field, fieldState }) => (
          <TextField
            label={t('keyRequests.form.quantity')}
            required
            {...wholeNumberInputProps(field)}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={Boolean(fieldState.error)}
            helperText={fieldErrorText(fieldState.error, () => t('keyRequests.form.quantityInvalid'))}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `${testIdPrefix}-quantity` } }}
          />
        )}
      />
    </>
  );
};
