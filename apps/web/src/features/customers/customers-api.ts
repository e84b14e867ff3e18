import type { TCity, TCountry, TFinancer, TState } from '@kisht/domain/catalogue/csc.schema';
import type {
  TConsentText,
  TCustomerConsent,
  TMyConsent,
  TRecordConsentRequest,
} from '@kisht/domain/customers/consent.schema';
import type { TConsentLanguage } from '@kisht/domain/customers/consent-texts';
import type {
  TCreateCustomerRequest,
  TCustomerDetails,
  TLoanDefaults,
  TStatusChange,
  TUpdateImeiRequest,
  TUpdateStatusRequest,
} from '@kisht/domain/customers/customers.schema';
import type { TReEnrolRequest, TReEnrolResponse } from '@kisht/domain/devices/devices.schema';
import type { TEditEmiTermsRequest, TEmiDetails } from '@kisht/domain/emi/emi.schema';
import type {
  TCustomerMedia,
  TDeleteMediaRequest,
  TDocumentType,
  TMedia,
  TMediaKind,
} from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { fileRequest } from '../../lib/http/base-query';
import type { TCustomerListArgs } from '../../lib/http/customer-list-api';
import { CUSTOMER_LIST_TAG, customerTag } from '../../lib/http/tags';
import { toUploadBody } from '../../lib/upload-file';

/**
 * The country-state-city data does not change while the app runs, so it stays cached for a day
 * rather than the spec §7 default of 300 s.
 */
export const CSC_CACHE_SECONDS = 24 * 60 * 60;

/** What the customer-list CSV export is filtered by: the list's own search, status and shop. */
export type TCustomerCsvArgs = TCustomerListArgs;

/** The states of a country (csc states route). */
export type TStatesArgs = { country: string };
/** The cities of a state of a country (csc cities route). */
export type TCitiesArgs = { country: string; state: string };

/** The customer photo or the invoice attachment (upload_customer_details). */
export type TCustomerImageKind = Extract<TMediaKind, 'customer_profile' | 'customer_invoice_attachment'>;
/** The customer's or the witness's signature. */
export type TSignatureKind = Extract<TMediaKind, 'customer_signature' | 'witness_signature'>;

/** An upload of the customer photo or invoice; `file` already compressed (prepareUploadFile). */
export type TUploadImageArgs = { customerId: number; kind: TCustomerImageKind; file: File };
/** An upload of one customer document. */
export type TUploadDocumentArgs = { customerId: number; documentType: TDocumentType; file: File };
/** An upload of a signature drawn on the pad (a PNG). */
export type TUploadSignatureArgs = { customerId: number; kind: TSignatureKind; file: File };

/** The consent text to show a customer before they sign: their language decides the text. */
export type TConsentTextArgs = { customerId: number; language: TConsentLanguage };

const mediaTag = (customerId: number) => ({ type: 'CustomerMedia', id: customerId }) as const;
/** A customer's consent to remote locking (part of the customer's data, so under their tag type). */
const consentTag = (customerId: number) => ({ type: 'Customer', id: `consent:${customerId}` }) as const;
/** The logged-in customer's own consents. */
const MY_CONSENTS_TAG = { type: 'Customer', id: 'MY_CONSENTS' } as const;
const statusHistoryTag = (customerId: number) => ({ type: 'StatusHistory', id: customerId }) as const;

export const customersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The list, filtered like the screen, as a CSV file (text), with the same headers as every call. */
    getCustomersCsv: build.query<string, TCustomerCsvArgs>({
      query: ({ search, status, retailerId }) =>
        fileRequest(paths.customers.listCsv, {
          status,
          ...(search ? { search } : {}),
          ...(retailerId === undefined ? {} : { retailer_id: retailerId }),
        }),
      keepUnusedDataFor: 0,
    }),
    getCustomerDetails: build.query<TCustomerDetails, number>({
      query: (customerId) => ({ url: paths.customers.details, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [{ type: 'Customer', id: customerId }],
    }),
    createCustomer: build.mutation<TCustomerDetails, TCreateCustomerRequest>({
      query: (body) => ({ url: paths.customers.create, method: 'POST', body }),
      // A new loan adds to what is outstanding and to the EMIs coming up.
      invalidatesTags: [CUSTOMER_LIST_TAG, 'Dashboard', 'Outstanding', 'UpcomingEmi'],
    }),
    /** financer_list: the organisation's financers. Spec §7: a POST with no body. */
    listFinancers: build.query<TFinancer[], void>({
      query: () => ({ url: paths.catalogue.financers, method: 'POST' }),
      providesTags: ['Financer'],
    }),
    listCountries: build.query<TCountry[], void>({
      query: () => paths.catalogue.countries,
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** The cache key is the country code. */
    listStates: build.query<TState[], TStatesArgs>({
      query: ({ country }) => ({ url: paths.catalogue.states, params: { country } }),
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** The cache key is the country and state codes. */
    listCities: build.query<TCity[], TCitiesArgs>({
      query: ({ country, state }) => ({ url: paths.catalogue.cities, params: { country, state } }),
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** customer_documents: the newest photo, invoice and signatures, and every document. */
    getCustomerMedia: build.query<TCustomerMedia, number>({
      query: (customerId) => ({ url: paths.customers.documents, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [mediaTag(customerId)],
    }),
    /** The customer photo or the invoice attachment; a new photo changes the details' photoImageName. */
    /**
     * amapi_sync (issue 15): ask Google's Android Management API now whether the customer's
     * managed-Android phone has enrolled; the customer's details follow what it found.
     */
    syncManagedAndroid: build.mutation<unknown, number>({
      query: (customerId) => ({
        url: paths.androidManagement.sync,
        method: 'POST',
        body: { customer_id: customerId },
      }),
      invalidatesTags: (_result, _error, customerId) => [customerTag(customerId)],
    }),
    uploadCustomerImage: build.mutation<TMedia, TUploadImageArgs>({
      query: ({ customerId, kind, file }) => ({
        url: paths.customers.uploadImage,
        method: 'POST',
        body: toUploadBody({ customer_id: customerId, kind }, file),
      }),
      invalidatesTags: (_result, _error, { customerId }) => [mediaTag(customerId), customerTag(customerId)],
    }),
    uploadCustomerDocument: build.mutation<TMedia, TUploadDocumentArgs>({
      query: ({ customerId, documentType, file }) => ({
        url: paths.customers.documents,
        method: 'POST',
        body: toUploadBody({ customer_id: customerId, document_type: documentType }, file),
      }),
      invalidatesTags: (_result, _error, { customerId }) => [mediaTag(customerId)],
    }),
    /** Deletes one document; the answer is the customer's media without it. */
    deleteCustomerDocument: build.mutation<TCustomerMedia, TDeleteMediaRequest>({
      query: (body) => ({ url: paths.customers.deleteDocument, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [mediaTag(customer_id)],
    }),
    uploadSignature: build.mutation<TMedia, TUploadSignatureArgs>({
      query: ({ customerId, kind, file }) => ({
        url: paths.customers.signature,
        method: 'POST',
        body: toUploadBody({ customer_id: customerId, kind }, file),
      }),
      invalidatesTags: (_result, _error, { customerId }) => [mediaTag(customerId)],
    }),
    /** IMEI_EDIT: the IMEIs show on the details and in the list (its search finds them). */
    updateImei: build.mutation<TCustomerDetails, TUpdateImeiRequest>({
      query: (body) => ({ url: paths.customers.updateImei, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [customerTag(customer_id), CUSTOMER_LIST_TAG],
    }),
    /** RE_ENROL (issue 27): the customer becomes inactive, their phone revoked; details and list are stale. */
    reEnrol: build.mutation<TReEnrolResponse, TReEnrolRequest>({
      query: (body) => ({ url: paths.devices.reEnrol, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [customerTag(customer_id), CUSTOMER_LIST_TAG],
    }),
    /**
     * EMI_EDIT: new loan terms rebuild the schedule, so the details, the EMI screen, the dashboard
     * figures and the upcoming EMIs are stale.
     */
    editEmiTerms: build.mutation<TEmiDetails, TEditEmiTermsRequest>({
      query: (body) => ({ url: paths.emi.editTerms, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        { type: 'Emi', id: customer_id },
        'Dashboard',
        'Outstanding',
        'UpcomingEmi',
      ],
    }),
    /** A status change by hand: the details, the list row, the trail and the dashboard counts. */
    updateCustomerStatus: build.mutation<TCustomerDetails, TUpdateStatusRequest>({
      query: (body) => ({ url: paths.customers.updateStatus, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        statusHistoryTag(customer_id),
        CUSTOMER_LIST_TAG,
        'Dashboard',
      ],
    }),
    /** The organisation's loan terms the add-customer form starts with (its annual rate). */
    getLoanDefaults: build.query<TLoanDefaults, void>({
      query: () => paths.customers.loanDefaults,
    }),
    /** The consent to remote locking in the chosen language, with its version (cache key: customer and language). */
    getConsentText: build.query<TConsentText, TConsentTextArgs>({
      query: ({ customerId, language }) => ({
        url: paths.customers.consentText,
        params: { customer_id: customerId, language },
      }),
    }),
    /** The customer's recorded consent, or null while none is recorded (the enrolment QR needs one). */
    getCustomerConsent: build.query<TCustomerConsent | null, number>({
      query: (customerId) => ({ url: paths.customers.consent, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [consentTag(customerId)],
    }),
    /** Records the consent; the signature (uploaded first) becomes the customer's signature too. */
    recordConsent: build.mutation<TCustomerConsent, TRecordConsentRequest>({
      query: (body) => ({ url: paths.customers.consent, method: 'POST', body }),
      invalidatesTags: (_result, _error, { customer_id }) => [consentTag(customer_id), mediaTag(customer_id)],
    }),
    /** The logged-in customer's own consents (their view). */
    getMyConsents: build.query<TMyConsent[], void>({
      query: () => paths.customers.myConsents,
      providesTags: [MY_CONSENTS_TAG],
    }),
    /** The status trail, newest first. */
    getStatusHistory: build.query<TStatusChange[], number>({
      query: (customerId) => ({ url: paths.customers.statusHistory, params: { customer_id: customerId } }),
      providesTags: (_result, _error, customerId) => [statusHistoryTag(customerId)],
    }),
  }),
});

export const {
  useLazyGetCustomersCsvQuery,
  useGetCustomerDetailsQuery,
  useCreateCustomerMutation,
  useListFinancersQuery,
  useListCountriesQuery,
  useListStatesQuery,
  useListCitiesQuery,
  useGetCustomerMediaQuery,
  useUploadCustomerImageMutation,
  useSyncManagedAndroidMutation,
  useUploadCustomerDocumentMutation,
  useDeleteCustomerDocumentMutation,
  useUploadSignatureMutation,
  useUpdateImeiMutation,
  useReEnrolMutation,
  useEditEmiTermsMutation,
  useUpdateCustomerStatusMutation,
  useGetStatusHistoryQuery,
  useGetLoanDefaultsQuery,
  useGetConsentTextQuery,
  useGetCustomerConsentQuery,
  useRecordConsentMutation,
  useGetMyConsentsQuery,
} = customersApi;
