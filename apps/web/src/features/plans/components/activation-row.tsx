import { istDate } from '@kisht/domain/common/time';
import type { TPlanActivation } from '@kisht/domain/plans/plans.schema';
import Chip from '@mui/material/Chip';
import ListItemButton from '@mui/material/ListItemButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMobile } from '../../../lib/format';

/** The +05:30 day a plan was sold, `DD-MM-YYYY` ('' for a malformed instant). */
export const soldOn = (activation: TPlanActivation): string => {
  const at = new Date(activation.createdAt);
  return Number.isNaN(at.getTime()) ? '' : formatDate(istDate(at));
};

/** Whether a plan sold's code is redeemed yet (issued / redeemed), as a small chip. */
export const ActivationStatusChip = ({
  status,
  testId,
}: {
  status: TPlanActivation['status'];
  testId?: string;
}) => {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={status === 'redeemed' ? 'success' : 'default'}
      variant={status === 'redeemed' ? 'filled' : 'outlined'}
      label={t(`plans.status.${status}`)}
      data-testid={testId}
    />
  );
};

/**
 * One plan sold, as a tappable row (spec §2): the buyer's name and mobile, the plan, the day it
 * was sold (DD-MM-YYYY, +05:30) and whether the phone has redeemed its code (issued / redeemed).
 */
export const ActivationRow = ({
  activation,
  onOpen,
}: {
  activation: TPlanActivation;
  onOpen: (activation: TPlanActivation) => void;
}) => {
  const name = `${activation.firstName} ${activation.lastName}`.trim();
  return (
    <ListItemButton
      divider
      onClick={() => onOpen(activation)}
      data-testid={`activation-row-${activation.id}`}
      sx={{ px: 1.5, alignItems: 'flex-start' }}
    >
      <Stack sx={{ flex: 1, minWidth: 0 }} spacing={0.25}>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="subtitle2" noWrap data-testid="activation-name">
            {name}
          </Typography>
          <ActivationStatusChip status={activation.status} testId="activation-status" />
        </Stack>
        <Typography variant="body2" color="textSecondary" noWrap data-testid="activation-mobile">
          {formatMobile(activation.mobile)}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between' }}>
          <Typography variant="body2" noWrap data-testid="activation-plan">
            {activation.planName}
          </Typography>
          <Typography variant="body2" color="textSecondary" data-testid="activation-date">
            {soldOn(activation)}
          </Typography>
        </Stack>
      </Stack>
    </ListItemButton>
  );
};
