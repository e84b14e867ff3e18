import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { TInstalmentStatus } from '../instalment-status';
import { INSTALMENT_STATUS_DISPLAY } from '../instalment-status';

/** An instalment's status as a translated, coloured chip: Paid, Overdue, Due today or Upcoming. */
export const InstalmentStatusChip = ({ status }: { status: TInstalmentStatus }) => {
  const { t } = useTranslation();
  const display = INSTALMENT_STATUS_DISPLAY[status];
  return (
    <Chip
      size="small"
      color={display.color}
      variant={status === 'upcoming' ? 'outlined' : 'filled'}
      label={t(display.labelKey)}
      data-testid="instalment-status"
      data-status={status}
    />
  );
};
