import type { TCommandState } from '@kisht/domain/common/enums';
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

type TCommandStateChipProps = { state: TCommandState; testId?: string };

/** A command's lifecycle state (queued, sent, received, done, failed, cancelled, expired) as a chip. */
export const CommandStateChip = ({ state, testId }: TCommandStateChipProps) => {
  const { t } = useTranslation();
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
