import type { TCommandState } from '@kisht/domain/common/enums';
import ScheduleIcon from '@mui/icons-material/Schedule';
import type { ChipProps } from '@mui/material/Chip';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

/** The colour of each command state (design §5): on its way, applied, or ended without effect. */
const STATE_COLOURS: Record<TCommandState, ChipProps['color']> = {
  queued: 'default',
  sent: 'info',
  received: 'info',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
  expired: 'warning',
};

type TCommandStateChipProps = {
  state: TCommandState;
  /** Queued and waiting for its run_at: shown as "scheduled" rather than "queued". */
  isScheduled?: boolean;
  testId?: string;
};

/**
 * A command's lifecycle state (queued, sent, received, done, failed, cancelled, expired) as a
 * chip; a queued command waiting for its run_at reads "scheduled".
 */
export const CommandStateChip = ({ state, isScheduled = false, testId }: TCommandStateChipProps) => {
  const { t } = useTranslation();
  if (isScheduled) {
    return (
      <Chip
        size="small"
        color="info"
        variant="outlined"
        icon={<ScheduleIcon />}
        label={t('commandState.scheduled')}
        data-testid={testId}
        data-state={state}
        data-scheduled="true"
        sx={{ textTransform: 'capitalize' }}
      />
    );
  }
  return (
    <Chip
      size="small"
      color={STATE_COLOURS[state]}
      variant={state === 'queued' || state === 'cancelled' ? 'outlined' : 'filled'}
      label={t(`commandState.${state}`)}
      data-testid={testId}
      data-state={state}
      sx={{ textTransform: 'capitalize' }}
    />
  );
};
