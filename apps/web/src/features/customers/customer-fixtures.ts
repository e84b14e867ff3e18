import type { TCustomerDetails, TStatusChange } from '@kisht/domain/customers/customers.schema';
import type { TCustomerMedia, TMedia } from '@kisht/domain/media/media.schema';

/** Test factories for the customer screens: realistic values, each overridable. */

export const createCustomerDetails = (overrides: Partial<TCustomerDetails> = {}): TCustomerDetails => ({
  id: 5,
  firstName: 'Anita',
  lastName: 'Rao',
  mobile: '+919876543210',
  imei1: '356938035643809',
  imei2: '356938035643817',
  productName: 'Redmi Note 14 5G',
  status: 1,
  lockStatus: 0,
  createdAt: '2026-01-15T06:45:00Z',
  email: null,
  appType: 0,
  deviceType: 0,
  productId: 1,
  dateOfBirth: null,
  address: null,
  serialNumber: null,
  financerName: null,
  photoImageName: null,
  loan: {
    interestMethod: 'reducing',
    processingFeePaise: 0,
    pricePaise: 2_000_000,
    downPaymentPaise: 500_000,
    loanAmountPaise: 1_500_000,
    annualRateBps: 1200,
    tenureMonths: 2,
    emiPaise: 761_278,
  },
  device: {
    id: '0190a5a4-7e0e-7c55-8f00-000000000001',
    enrolledAt: '2026-01-15T07:00:00Z',
    lockStatus: 0,
    lastSeenAt: '2026-01-15T07:05:00Z',
    isOnline: true,
    pendingCommand: null,
    lastCommand: null,
  },
  emis: [
    {
      id: 101,
      instalmentNo: 1,
      dueDate: '2026-02-15',
      amountPaise: 761_278,
      principalPaise: 746_278,
      interestPaise: 15_000,
      paidPaise: 0,
    },
    {
      id: 102,
      instalmentNo: 2,
      dueDate: '2026-03-15',
      amountPaise: 761_278,
      principalPaise: 753_740,
      interestPaise: 7_538,
      paidPaise: 0,
    },
  ],
  ...overrides,
});

/** A stored file; its image_name follows the organisation path of its kind. */
export const createMedia = (overrides: Partial<TMedia> = {}): TMedia => {
  const id = overrides.id ?? 1;
  const kind = overrides.kind ?? 'customer_document';
  const mimeType = overrides.mimeType ?? 'image/jpeg';
  const extension = mimeType === 'application/pdf' ? 'pdf' : mimeType === 'image/png' ? 'png' : 'jpg';
  return {
    id,
    kind,
    documentType: kind === 'customer_document' ? 'aadhaar_front' : null,
    imageName: `41/${kind}/0193a5a4-7e0e-7c55-8f00-${String(id).padStart(12, '0')}.${extension}`,
    mimeType,
    sizeBytes: 120_000,
    createdAt: '2026-01-15T06:45:00Z',
    uploadedByName: 'Ravi Kumar',
    ...overrides,
  };
};

export const createCustomerMedia = (overrides: Partial<TCustomerMedia> = {}): TCustomerMedia => ({
  customerId: 5,
  photo: null,
  invoice: null,
  signature: null,
  witnessSignature: null,
  documents: [],
  witnessRequired: false,
  ...overrides,
});

export const createStatusChange = (overrides: Partial<TStatusChange> = {}): TStatusChange => ({
  at: '2026-01-15T07:00:00Z',
  fromStatus: 0,
  toStatus: 1,
  reason: null,
  actorName: null,
  ...overrides,
});
