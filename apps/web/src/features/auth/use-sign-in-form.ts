import type { TFieldError } from '@kisht/domain/common/envelope';
import { useState } from 'react';
import type { TTranslate } from '../../lib/plain-i18n';
import { checkSignInForm, recheck, refusalOf, type TSignInErrors, type TSignInField } from './sign-in-errors';

/**
 * A sign-in form's state without a form library (issue 28): its values, the text under each field,
 * and the refusal shown above the form. `change` keeps a value and checks again a field that shows
 * an error; `check` checks `fields` and says whether they are all fine (and clears the refusal);
 * `refuse` shows a refused call under the form's own fields `serverFields` it names, else above.
 */
export const useSignInForm = <F extends TSignInField>(
  t: TTranslate,
  initialValues: Record<F, string> | (() => Record<F, string>),
  serverFields: readonly TSignInField[],
) => {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<TSignInErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const change = (field: F, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field]) setErrors(recheck(errors, field, checkSignInForm(t, [field], next)));
  };

  const check = (fields: readonly F[]): boolean => {
    const found = checkSignInForm(t, fields, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return false;
    setFailure(null);
    return true;
  };

  const refuse = (error: { message: string; fields: readonly TFieldError[] }) => {
    const refusal = refusalOf(error, serverFields);
    setErrors(refusal.errors);
    setFailure(refusal.failure);
  };

  return { values, setValues, errors, setErrors, failure, setFailure, change, check, refuse };
};
