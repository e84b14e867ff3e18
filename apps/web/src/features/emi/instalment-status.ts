import type { TInstalmentRow } from '@kisht/domain/emi/emi.schema';

export type TInstalmentStatus = TInstalmentRow['status'];

type TChipColor = 'success' | 'error' | 'warning' | 'default';

/** How each instalment status (domain instalmentStatus) shows: its label's key and its colour. */
export const INSTALMENT_STATUS_DISPLAY: Record<
  TInstalmentStatus,
  { labelKey: `instalmentStatus.${TInstalmentStatus}`; color: TChipColor }
> = {
  paid: { labelKey: 'instalmentStatus.paid', color: 'success' },
  overdue: { labelKey: 'instalmentStatus.overdue', color: 'error' },
  due_today: { labelKey: 'instalmentStatus.due_today', color: 'warning' },
  upcoming: { labelKey: 'instalmentStatus.upcoming', color: 'default' },
};
