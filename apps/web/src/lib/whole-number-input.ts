import type { ChangeEvent } from 'react';

/**
 * value/onChange for a text field bound to a whole-number form value (react-hook-form field): keeps
 * only the digits typed, and an empty field is NaN so the zod schema reports it, never a silent 0.
 */
export const wholeNumberInputProps = (field: { value: number; onChange: (value: number) => void }) => ({
  value: Number.isNaN(field.value) ? '' : String(field.value),
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const digits = event.target.value.replace(/\D/g, '');
    field.onChange(digits === '' ? Number.NaN : Number(digits));
  },
});
