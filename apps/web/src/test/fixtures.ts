import type { TCustomerDetails, TStatusChange } from '@kisht/domain/customers/customers.schema';
import { controlAvailability } from '@kisht/domain/devices/control-availability';
import type {
  TBulkProgress,
  TCommandHistoryItem,
  TDeviceCommand,
  TDeviceSummary,
} from '@kisht/domain/devices/devices.schema';
import type { TCustomerMedia, TMedia } from '@kisht/domain/media/media.schema';

/** Test factories for the customer screens: realistic values, each overridable. */

/**
 * An enrolled, unlocked device policy controller phone, online, with nothing pending; its
 * availability is what the spec §6 rules offer it.
 */
export const createDeviceSummary = (overrides: Partial<TDeviceSummary> = {}): TDeviceSummary => ({
  id: '0190a5a4-7e0e-7c55-8f00-000000000001',
  enrolledAt: '2026-01-15T07:00:00Z',
  lockStatus: 0,
  lastSeenAt: '2026-01-15T07:05:00Z',
  isOnline: true,
  paidThrough: '2026-02-17T18:30:00.000Z',
  pendingCommand: null,
  lastCommand: null,
  controls: {},
  pendingControls: {},
  availability: controlAvailability({ deviceType: 0, isLocked: false }),
  lastLocation: null,
  sims: null,
  ...overrides,
});

/** A command as the device summary shows it (UUIDv7-shaped id from the number). */
export const createDeviceCommand = (overrides: Partial<TDeviceCommand> = {}): TDeviceCommand => ({
  id: '0193a5a4-7e0e-7c55-8f00-000000000101',
  name: 'lock',
  state: 'queued',
  createdAt: '2026-01-15T08:00:00Z',
  updatedAt: '2026-01-15T08:00:00Z',
  error: null,
  ...overrides,
});

/** A command of the history: a camera lock Ravi Kumar sent, done. */
export const createCommandHistoryItem = (
  overrides: Partial<TCommandHistoryItem> = {},
): TCommandHistoryItem => ({
  ...createDeviceCommand({ name: 'camera_lock', state: 'done' }),
  feature: 'camera_lock',
  args: {},
  result: null,
  createdByName: 'Ravi Kumar',
  deliveryAttempts: 1,
  runAt: null,
  batchId: null,
  ...overrides,
});

/** A bulk lock of two phones, both still queued. */
export const createBulkProgress = (overrides: Partial<TBulkProgress> = {}): TBulkProgress => ({
  batchId: '0193a5a4-7e0e-7c55-8f00-00000000b001',
  action: 'lock',
  total: 2,
  counts: { queued: 2, sent: 0, received: 0, done: 0, failed: 0, cancelled: 0, expired: 0 },
  skipped: [],
  items: [
    {
      customerId: 5,
      customerName: 'Anita Rao',
      commandId: '0193a5a4-7e0e-7c55-8f00-000000000201',
      state: 'queued',
      error: null,
    },
    {
      customerId: 6,
      customerName: 'Vikram Singh',
      commandId: '0193a5a4-7e0e-7c55-8f00-000000000202',
      state: 'queued',
      error: null,
    },
  ],
  isChangesOnly: false,
  cursor: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

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
  device: createDeviceSummary(),
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
