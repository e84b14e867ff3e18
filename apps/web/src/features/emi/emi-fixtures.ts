import type { TDeviceCommand } from '@kisht/domain/devices/devices.schema';
import type {
  TCustomerEmiPin,
  TEmiDetails,
  TInstalmentRow,
  TMyInstalmentRow,
  TMyLoan,
  TPayment,
  TPaymentReceipt,
} from '@kisht/domain/emi/emi.schema';

/** Test factories for the emi screens: realistic values, each overridable. */

export const createInstalment = (overrides: Partial<TInstalmentRow> = {}): TInstalmentRow => {
  const instalmentNo = overrides.instalmentNo ?? 1;
  const amountPaise = overrides.amountPaise ?? 881_486;
  const paidPaise = overrides.paidPaise ?? 0;
  return {
    id: 100 + instalmentNo,
    instalmentNo,
    dueDate: `2026-${String(instalmentNo).padStart(2, '0')}-05`,
    amountPaise,
    principalPaise: amountPaise - 10_000,
    interestPaise: 10_000,
    paidPaise,
    outstandingPaise: Math.max(0, amountPaise - paidPaise),
    status: paidPaise >= amountPaise ? 'paid' : 'upcoming',
    penaltyPaise: 0,
    waivedPaise: 0,
    penaltyDuePaise: 0,
    ...overrides,
  };
};

export const createPayment = (overrides: Partial<TPayment> = {}): TPayment => ({
  id: 1,
  receiptNo: 'KR-41-000001',
  amountPaise: 881_486,
  mode: 'cash',
  reference: null,
  receivedAt: '2026-01-05T06:30:00Z',
  recordedByName: 'Ravi Mobiles',
  allocations: [{ instalmentNo: 1, amountPaise: 881_486 }],
  ...overrides,
});

/** Instalment 1 paid, 2 overdue, 3 due today, 4 upcoming. */
export const createEmiDetails = (overrides: Partial<TEmiDetails> = {}): TEmiDetails => {
  const instalments = overrides.instalments ?? [
    createInstalment({ instalmentNo: 1, paidPaise: 881_486 }),
    createInstalment({ instalmentNo: 2, status: 'overdue' }),
    createInstalment({ instalmentNo: 3, status: 'due_today', paidPaise: 100_000 }),
    createInstalment({ instalmentNo: 4 }),
  ];
  const sum = (pick: (row: TInstalmentRow) => number) =>
    instalments.reduce((total, row) => total + pick(row), 0);
  return {
    customerId: 5,
    customerName: 'Anita Rao',
    customerStatus: 1,
    instalments,
    totals: {
      amountPaise: sum((row) => row.amountPaise),
      paidPaise: sum((row) => row.paidPaise),
      outstandingPaise: sum((row) => row.outstandingPaise),
      overduePaise: sum((row) => (row.status === 'overdue' ? row.outstandingPaise : 0)),
    },
    payments: [createPayment()],
    ...overrides,
  };
};

export const createReceipt = (overrides: Partial<TPaymentReceipt> = {}): TPaymentReceipt => ({
  ...createPayment({
    id: 2,
    receiptNo: 'KR-41-000002',
    amountPaise: 1_662_972,
    mode: 'upi',
    reference: 'UTR123456',
    receivedAt: '2026-03-05T09:15:00Z',
    allocations: [
      { instalmentNo: 2, amountPaise: 881_486 },
      { instalmentNo: 3, amountPaise: 781_486 },
    ],
  }),
  customerStatus: 1,
  ...overrides,
});

export const createEmiPin = (overrides: Partial<TCustomerEmiPin> = {}): TCustomerEmiPin => ({
  customerId: 5,
  emiPin: '482913',
  updatedAt: '2026-01-05T06:30:00Z',
  ...overrides,
});

export const createEmiAlertCommand = (overrides: Partial<TDeviceCommand> = {}): TDeviceCommand => ({
  id: '5f0c6d8e-2b1a-4c3d-9e8f-7a6b5c4d3e2f',
  name: 'emi_alert',
  state: 'queued',
  createdAt: '2026-03-05T09:15:00Z',
  updatedAt: '2026-03-05T09:15:00Z',
  error: null,
  ...overrides,
});

/**
 * An instalment of the customer's own view: the row plus days overdue, late fee and total due
 * (none of them, unless overridden).
 */
export const createMyInstalment = (overrides: Partial<TMyInstalmentRow> = {}): TMyInstalmentRow => {
  const row = createInstalment(overrides);
  return {
    ...row,
    daysOverdue: 0,
    lateFeePaise: row.penaltyPaise,
    totalDuePaise: row.outstandingPaise,
    ...overrides,
  };
};

/**
 * A customer's own loan: instalment 1 paid, 2 overdue by 28 days with the organisation's ₹200 late
 * fee not yet levied (total due ₹9,014.86), 3 due today, 4 upcoming.
 */
export const createMyLoan = (overrides: Partial<TMyLoan> = {}): TMyLoan => {
  const details = createEmiDetails();
  return {
    customerId: 5,
    productName: 'Redmi Note 14 5G',
    lockStatus: 0,
    instalments: details.instalments.map((row) =>
      row.status === 'overdue'
        ? createMyInstalment({
            ...row,
            penaltyDuePaise: 20_000,
            daysOverdue: 28,
            lateFeePaise: 20_000,
            totalDuePaise: row.outstandingPaise + 20_000,
          })
        : createMyInstalment(row),
    ),
    totals: details.totals,
    payTo: {
      retailerName: 'Ravi Mobiles',
      upiId: 'ravimobiles@okaxis',
      upiLink: 'upi://pay?pa=ravimobiles@okaxis&pn=Ravi%20Mobiles&am=9014.86&cu=INR&tn=EMI%20PIN%20482913',
      emiPin: '482913',
    },
    ...overrides,
  };
};
