import type { TInstalmentRow } from '@kisht/domain/emi/emi.schema';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../../lib/format';
import type { TInstalmentAction } from '../instalment-actions';
import { instalmentActions } from '../instalment-actions';

/** What the retailer can do to a row of the schedule; absent on read-only screens. */
export type TInstalmentRowActions = {
  onAction: (action: TInstalmentAction, instalment: TInstalmentRow) => void;
  isDisabled?: boolean;
};

/**
 * The "Actions for instalment <no>" button of a schedule row and its menu: "Levy penalty ₹X",
 * "Waive penalty" and "Waive", each only when it applies (instalmentActions). Nothing shows for a
 * row with no action (a paid instalment).
 */
export const InstalmentActionsMenu = ({
  instalment,
  actions,
}: {
  instalment: TInstalmentRow;
  actions: TInstalmentRowActions;
}) => {
  const { t } = useTranslation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const available = instalmentActions(instalment);
  if (available.length === 0) return null;
  const no = instalment.instalmentNo;

  const labelOf = (action: TInstalmentAction): string => {
    if (action === 'levyPenalty') {
      return t('emi.penalty.levyAction', { amount: formatRupees(instalment.penaltyDuePaise) });
    }
    return action === 'waivePenalty' ? t('emi.waive.penaltyAction') : t('emi.waive.action');
  };

  const choose = (action: TInstalmentAction) => {
    setAnchor(null);
    actions.onAction(action, instalment);
  };

  return (
    <>
      <IconButton
        size="small"
        aria-label={t('emi.schedule.actionsFor', { no })}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        disabled={actions.isDisabled}
        onClick={(event) => setAnchor(event.currentTarget)}
        data-testid={`emi-actions-${no}`}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {available.map((action) => (
          <MenuItem key={action} onClick={() => choose(action)} data-testid={`emi-action-${action}-${no}`}>
            {labelOf(action)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
