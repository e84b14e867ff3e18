import { zodResolver } from '@hookform/resolvers/zod';
import type { TRetailer } from '@kisht/domain/retailers/retailers.schema';
import { ZAddRetailerRequest } from '@kisht/domain/retailers/retailers.schema';
import type { TFunction } from 'i18next';
import type { FieldError, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { domainMessageKey } from '../../lib/form-errors';
import { toLocalMobileDigits } from '../../lib/mobile-input';

/** The add/edit retailer form's schema: add_retailer's request without the access flags. */
export const ZRetailerForm = ZAddRetailerRequest.omit({ userAccess: true, lockAccess: true });

/** What the form sends (ZRetailerForm's output: mobile +91…, empty email and GSTIN left out). */
export type TRetailerFormOutput = z.output<typeof ZRetailerForm>;

/** What the form holds while it is filled in (text as typed; pincode undefined when empty). */
export type TRetailerFormValues = {
  name: string;
  shopName: string;
  mobile: string;
  email: string;
  gstNumber: string;
  address: {
    line1: string;
    countryCode: string;
    stateCode: string;
    city: string;
    pincode?: string | undefined;
  };
};

/** A blank form: India chosen, as most shops are. */
export const EMPTY_RETAILER_FORM: TRetailerFormValues = {
  name: '',
  shopName: '',
  mobile: '',
  email: '',
  gstNumber: '',
  address: { line1: '', countryCode: 'IN', stateCode: '', city: '', pincode: undefined },
};

/** The form filled with a stored retailer (the mobile as its 10 local digits). */
export const retailerFormValues = (retailer: TRetailer): TRetailerFormValues => ({
  name: retailer.name,
  shopName: retailer.shopName ?? '',
  mobile: toLocalMobileDigits(retailer.mobile),
  email: retailer.email ?? '',
  gstNumber: retailer.gstNumber ?? '',
  address: retailer.address
    ? {
        line1: retailer.address.line1,
        countryCode: retailer.address.countryCode,
        stateCode: retailer.address.stateCode,
        city: retailer.address.city,
        pincode: retailer.address.pincode,
      }
    : EMPTY_RETAILER_FORM.address,
});

/** The resolver of the add and edit forms: the domain schema, as zodResolver checks it. */
export const retailerFormResolver = (): Resolver<TRetailerFormValues, unknown, TRetailerFormOutput> =>
  zodResolver<TRetailerFormValues, unknown, TRetailerFormOutput>(
    // The form holds text as typed (email and GSTIN as empty text), which the schema also accepts.
    ZRetailerForm as unknown as z.ZodType<TRetailerFormOutput, TRetailerFormValues>,
  );

/** The GSTIN messages of the domain (ZGstNumber), by translation key. */
const GST_MESSAGE_KEYS = {
  'GST number is 15 characters': 'retailers.validation.gstLength',
  'GST number starts with a state code 01 to 38': 'retailers.validation.gstState',
  'GST number must contain a valid PAN': 'retailers.validation.gstPan',
  'Enter a valid GST number': 'retailers.validation.gstInvalid',
  'GST number check character is wrong': 'retailers.validation.gstCheck',
} as const;

/**
 * The translated text under a field: the server's own words for a server error, 'This is a
 * required field' when empty, else the domain message's translation.
 */
export const retailerFieldError = (
  t: TFunction,
  error: FieldError | undefined,
  value: unknown,
): string | null => {
  if (!error) return null;
  if (error.type === 'server' && error.message) return error.message;
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return t('validation.required');
  const gstKey = GST_MESSAGE_KEYS[(error.message ?? '') as keyof typeof GST_MESSAGE_KEYS];
  return t(domainMessageKey(error.message) ?? gstKey ?? 'validation.invalidValue');
};
