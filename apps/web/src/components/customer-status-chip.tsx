import type { TCustomerStatus } from '@kisht/domain/common/enums';
import { statusWord } from '@kisht/domain/common/enums';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

type TChipColor = 'default' | 'success' | 'warning' | 'error' | 'info' | 'secondary';

/** Colour of each status (spec §4 codes), so a list can be scanned at a glance. */
export const STATUS_COLORS: Record<TCustomerStatus, TChipColor> = {
  0: 'default',
  1: 'success',
  2: 'warning',
  3: 'error',
  4: 'error',
  5: 'info',
  6: 'secondary',
};

/** A customer's status (spec §4) as a translated, coloured chip. */
export const CustomerStatusChip = ({ status }: { status: TCustomerStatus }) => {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[status]}
      variant={status === 0 ? 'outlined' : 'filled'}
      label={t(`customerStatus.${statusWord(status)}`)}
      data-testid="customer-status"
    />
  );
};
