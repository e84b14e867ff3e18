import type { TextFieldProps } from '@mui/material/TextField';
import TextField from '@mui/material/TextField';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldErrorText, fieldMessageKey, type TValidationKey } from '../lib/form-errors';

type TDialogFormFieldProps<TValues extends FieldValues, TParsed extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'inputRef'
> & {
  control: Control<TValues, unknown, TParsed>;
  name: Path<TValues>;
  /** The message for a problem the schema has no words of its own for (a mistyped amount). */
  fallbackKey: TValidationKey;
  /** Shown under the field while it has no error. */
  helperText?: string;
  /** Cleans what was typed before it is stored (digits only). */
  clean?: (raw: string) => string;
  /** Empty text is stored as undefined (an optional field left empty). */
  isEmptyUndefined?: boolean;
};

/**
 * A text field (or, with `select`, a select of string values) of an edit dialog's form, bound to
 * react-hook-form. Its error is the server's words for a server error, else the translated
 * message of the domain schema's issue.
 */
export const DialogFormField = <TValues extends FieldValues, TParsed extends FieldValues = TValues>({
  control,
  name,
  fallbackKey,
  helperText,
  clean,
  isEmptyUndefined,
  ...props
}: TDialogFormFieldProps<TValues, TParsed>) => {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const message = fieldErrorText(fieldState.error, (error) =>
          t(fieldMessageKey(error, field.value, fallbackKey)),
        );
        return (
          <TextField
            {...props}
            id={props.id ?? `dialog-field-${name}`}
            name={field.name}
            value={field.value ?? ''}
            inputRef={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => {
              const text = clean ? clean(event.target.value) : event.target.value;
              field.onChange(isEmptyUndefined && text === '' ? undefined : text);
            }}
            error={Boolean(message)}
            helperText={message ?? helperText ?? ' '}
            fullWidth
          />
        );
      }}
    />
  );
};
