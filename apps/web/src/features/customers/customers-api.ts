import type { androidManagementContract } from '@kisht/domain/contract/android-management';
import type { catalogueContract } from '@kisht/domain/contract/catalogue';
import type { customerDetailsContract } from '@kisht/domain/contract/customer-details';
import type { customersContract } from '@kisht/domain/contract/customers';
import type { TContractBody, TContractData, TContractQuery } from '@kisht/domain/contract/define';
import type { devicesContract } from '@kisht/domain/contract/devices';
import type { emiContract } from '@kisht/domain/contract/emi';
import type { mediaContract } from '@kisht/domain/contract/media';
import type { TConsentLanguage } from '@kisht/domain/customers/consent-texts';
import type { TDocumentType, TMediaKind } from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import { api } from '../../lib/http/api';
import { contractFileRequest } from '../../lib/http/contract-download';
import { contractRequest } from '../../lib/http/contract-request';
import type { TCustomerListArgs } from '../../lib/http/customer-list-api';
import { READABLE_OFFLINE } from '../../lib/http/offline-reads';
import { CUSTOMER_LIST_TAG, customerTag } from '../../lib/http/tags';
import { toUploadBody } from '../../lib/upload-file';

type TCustomersCsv = (typeof emiContract)['customersCsv'];
type TEditTerms = (typeof emiContract)['editTerms'];
type TDetails = (typeof customerDetailsContract)['details'];
type TCreate = (typeof customerDetailsContract)['create'];
type TUpdateImei = (typeof customerDetailsContract)['updateImei'];
type TUpdateStatus = (typeof customerDetailsContract)['updateStatus'];
type TFinancers = (typeof catalogueContract)['financers'];
type TCountries = (typeof catalogueContract)['countries'];
type TStates = (typeof catalogueContract)['states'];
type TCities = (typeof catalogueContract)['cities'];
type TGetCustomerMedia = (typeof mediaContract)['customerMedia'];
type TUploadImage = (typeof mediaContract)['uploadImage'];
type TUploadDocument = (typeof mediaContract)['uploadDocument'];
type TUploadSignature = (typeof mediaContract)['uploadSignature'];
type TDeleteDocument = (typeof mediaContract)['deleteDocument'];
type TAmapiSync = (typeof androidManagementContract)['sync'];
type TReEnrol = (typeof devicesContract)['reEnrol'];
type TGetLoanDefaults = (typeof customersContract)['loanDefaults'];
type TGetConsentText = (typeof customersContract)['consentText'];
type TConsent = (typeof customersContract)['consent'];
type TRecordConsent = (typeof customersContract)['recordConsent'];
type TMyConsents = (typeof customersContract)['myConsents'];
type TStatusHistory = (typeof customersContract)['statusHistory'];

/**
 * The country-state-city data does not change while the app runs, so it stays cached for a day
 * rather than the spec §7 default of 300 s.
 */
export const CSC_CACHE_SECONDS = 24 * 60 * 60;

/** What the customer-list CSV export is filtered by: the list's own search, status and shop. */
export type TCustomerCsvArgs = TCustomerListArgs;

/** The states of a country (csc states route). */
export type TStatesArgs = TContractQuery<TStates>;
/** The cities of a state of a country (csc cities route). */
export type TCitiesArgs = TContractQuery<TCities>;

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
        contractFileRequest<TCustomersCsv>(
          { path: paths.customers.listCsv, method: 'GET' },
          {
            status,
            ...(search ? { search } : {}),
            ...(retailerId === undefined ? {} : { retailer_id: retailerId }),
          },
        ),
      keepUnusedDataFor: 0,
    }),
    /** customer_details: one customer, their phone and loan with its EMIs; readable offline (issue 28). */
    getCustomerDetails: build.query<TContractData<TDetails>, number>({
      query: (customerId) =>
        contractRequest<TDetails>(
          { path: paths.customers.details, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [{ type: 'Customer', id: customerId }],
      extraOptions: READABLE_OFFLINE,
    }),
    createCustomer: build.mutation<TContractData<TCreate>, TContractBody<TCreate>>({
      query: (body) => contractRequest<TCreate>({ path: paths.customers.create, method: 'POST' }, { body }),
      // A new loan adds to what is outstanding and to the EMIs coming up.
      invalidatesTags: [CUSTOMER_LIST_TAG, 'Dashboard', 'Outstanding', 'UpcomingEmi'],
    }),
    /** financer_list: the organisation's financers. Spec §7: a POST with no body. */
    listFinancers: build.query<TContractData<TFinancers>, void>({
      query: () => contractRequest<TFinancers>({ path: paths.catalogue.financers, method: 'POST' }),
      providesTags: ['Financer'],
    }),
    listCountries: build.query<TContractData<TCountries>, void>({
      query: () => contractRequest<TCountries>({ path: paths.catalogue.countries, method: 'GET' }),
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** The cache key is the country code. */
    listStates: build.query<TContractData<TStates>, TStatesArgs>({
      query: ({ country }) =>
        contractRequest<TStates>({ path: paths.catalogue.states, method: 'GET' }, { params: { country } }),
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** The cache key is the country and state codes. */
    listCities: build.query<TContractData<TCities>, TCitiesArgs>({
      query: ({ country, state }) =>
        contractRequest<TCities>(
          { path: paths.catalogue.cities, method: 'GET' },
          { params: { country, state } },
        ),
      keepUnusedDataFor: CSC_CACHE_SECONDS,
    }),
    /** customer_documents: the newest photo, invoice and signatures, and every document. */
    getCustomerMedia: build.query<TContractData<TGetCustomerMedia>, number>({
      query: (customerId) =>
        contractRequest<TGetCustomerMedia>(
          { path: paths.customers.documents, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [mediaTag(customerId)],
    }),
    /**
     * amapi_sync (issue 15): ask Google's Android Management API now whether the customer's
     * managed-Android phone has enrolled; the customer's details follow what it found.
     */
    syncManagedAndroid: build.mutation<TContractData<TAmapiSync>, number>({
      query: (customerId) =>
        contractRequest<TAmapiSync>(
          { path: paths.androidManagement.sync, method: 'POST' },
          { body: { customer_id: customerId } },
        ),
      invalidatesTags: (_result, _error, customerId) => [customerTag(customerId)],
    }),
    /** The customer photo or the invoice attachment; a new photo changes the details' photoImageName. */
    uploadCustomerImage: build.mutation<TContractData<TUploadImage>, TUploadImageArgs>({
      query: ({ customerId, kind, file }) =>
        contractRequest<TUploadImage>(
          { path: paths.customers.uploadImage, method: 'POST' },
          { body: toUploadBody({ customer_id: customerId, kind }, file) },
        ),
      invalidatesTags: (_result, _error, { customerId }) => [mediaTag(customerId), customerTag(customerId)],
    }),
    uploadCustomerDocument: build.mutation<TContractData<TUploadDocument>, TUploadDocumentArgs>({
      query: ({ customerId, documentType, file }) =>
        contractRequest<TUploadDocument>(
          { path: paths.customers.documents, method: 'POST' },
          { body: toUploadBody({ customer_id: customerId, document_type: documentType }, file) },
        ),
      invalidatesTags: (_result, _error, { customerId }) => [mediaTag(customerId)],
    }),
    /** Deletes one document; the answer is the customer's media without it. */
    deleteCustomerDocument: build.mutation<TContractData<TDeleteDocument>, TContractBody<TDeleteDocument>>({
      query: (body) =>
        contractRequest<TDeleteDocument>({ path: paths.customers.deleteDocument, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [mediaTag(customer_id)],
    }),
    uploadSignature: build.mutation<TContractData<TUploadSignature>, TUploadSignatureArgs>({
      query: ({ customerId, kind, file }) =>
        contractRequest<TUploadSignature>(
          { path: paths.customers.signature, method: 'POST' },
          { body: toUploadBody({ customer_id: customerId, kind }, file) },
        ),
      invalidatesTags: (_result, _error, { customerId }) => [mediaTag(customerId)],
    }),
    /** IMEI_EDIT: the IMEIs show on the details and in the list (its search finds them). */
    updateImei: build.mutation<TContractData<TUpdateImei>, TContractBody<TUpdateImei>>({
      query: (body) =>
        contractRequest<TUpdateImei>({ path: paths.customers.updateImei, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [customerTag(customer_id), CUSTOMER_LIST_TAG],
    }),
    /** RE_ENROL (issue 27): the customer becomes inactive, their phone revoked; details and list are stale. */
    reEnrol: build.mutation<TContractData<TReEnrol>, TContractBody<TReEnrol>>({
      query: (body) => contractRequest<TReEnrol>({ path: paths.devices.reEnrol, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [customerTag(customer_id), CUSTOMER_LIST_TAG],
    }),
    /**
     * EMI_EDIT: new loan terms rebuild the schedule, so the details, the EMI screen, the dashboard
     * figures and the upcoming EMIs are stale.
     */
    editEmiTerms: build.mutation<TContractData<TEditTerms>, TContractBody<TEditTerms>>({
      query: (body) => contractRequest<TEditTerms>({ path: paths.emi.editTerms, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        { type: 'Emi', id: customer_id },
        'Dashboard',
        'Outstanding',
        'UpcomingEmi',
      ],
    }),
    /** A status change by hand: the details, the list row, the trail and the dashboard counts. */
    updateCustomerStatus: build.mutation<TContractData<TUpdateStatus>, TContractBody<TUpdateStatus>>({
      query: (body) =>
        contractRequest<TUpdateStatus>({ path: paths.customers.updateStatus, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [
        customerTag(customer_id),
        statusHistoryTag(customer_id),
        CUSTOMER_LIST_TAG,
        'Dashboard',
      ],
    }),
    /** The organisation's loan terms the add-customer form starts with (its annual rate). */
    getLoanDefaults: build.query<TContractData<TGetLoanDefaults>, void>({
      query: () => contractRequest<TGetLoanDefaults>({ path: paths.customers.loanDefaults, method: 'GET' }),
    }),
    /** The consent to remote locking in the chosen language, with its version (cache key: customer and language). */
    getConsentText: build.query<TContractData<TGetConsentText>, TConsentTextArgs>({
      query: ({ customerId, language }) =>
        contractRequest<TGetConsentText>(
          { path: paths.customers.consentText, method: 'GET' },
          { params: { customer_id: customerId, language } },
        ),
    }),
    /** The customer's recorded consent, or null while none is recorded (the enrolment QR needs one). */
    getCustomerConsent: build.query<TContractData<TConsent>, number>({
      query: (customerId) =>
        contractRequest<TConsent>(
          { path: paths.customers.consent, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [consentTag(customerId)],
      // Shown on customer_details' customer tab, which reads offline (issue 28).
      extraOptions: READABLE_OFFLINE,
    }),
    /** Records the consent; the signature (uploaded first) becomes the customer's signature too. */
    recordConsent: build.mutation<TContractData<TRecordConsent>, TContractBody<TRecordConsent>>({
      query: (body) =>
        contractRequest<TRecordConsent>({ path: paths.customers.consent, method: 'POST' }, { body }),
      invalidatesTags: (_result, _error, { customer_id }) => [consentTag(customer_id), mediaTag(customer_id)],
    }),
    /** The logged-in customer's own consents (their view). */
    getMyConsents: build.query<TContractData<TMyConsents>, void>({
      query: () => contractRequest<TMyConsents>({ path: paths.customers.myConsents, method: 'GET' }),
      providesTags: [MY_CONSENTS_TAG],
    }),
    /** The status trail, newest first. */
    getStatusHistory: build.query<TContractData<TStatusHistory>, number>({
      query: (customerId) =>
        contractRequest<TStatusHistory>(
          { path: paths.customers.statusHistory, method: 'GET' },
          { params: { customer_id: customerId } },
        ),
      providesTags: (_result, _error, customerId) => [statusHistoryTag(customerId)],
      // Shown on customer_details' customer tab, which reads offline (issue 28).
      extraOptions: READABLE_OFFLINE,
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
