import type { TextFieldProps } from '@mui/material/TextField';
import TextField from '@mui/material/TextField';
import type { Control, FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TApiError } from '../../../lib/http/base-query';
import type { TValidationKey } from '../add-customer-form';
import { fieldMessageKey } from '../add-customer-form';
import { SERVER_ERROR_TYPE } from './add-customer-fields';

/**
 * The text under a form field: null without an error, the server's own words for an error the
 * server sent (SERVER_ERROR_TYPE, with a message), else `own(error)`, the app's translated words.
 */
export const fieldErrorText = (
  error: FieldError | undefined,
  own: (error: FieldError) => string,
): string | null =>
  !error ? null : error.type === SERVER_ERROR_TYPE && error.message ? error.message : own(error);

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

/**
 * Puts the server's field errors (a 400's `fields`) under the form's fields, in the server's
 * words. `fieldOf` names the form field of a request field, or null for one the form does not
 * show. Returns whether any error landed on a field.
 */
export const applyServerFieldErrors = <TValues extends FieldValues>(
  error: TApiError,
  setError: UseFormSetError<TValues>,
  fieldOf: (requestField: string) => Path<TValues> | null,
): boolean => {
  let hasApplied = false;
  for (const { field, message } of error.fields) {
    const path = fieldOf(field);
    if (!path) continue;
    setError(path, { type: SERVER_ERROR_TYPE, message }, { shouldFocus: !hasApplied });
    hasApplied = true;
  }
  return hasApplied;
};
