import type { TCustomerEditAction } from '@kisht/domain/customers/customers.rules';
import EditIcon from '@mui/icons-material/Edit';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

type TCustomerEditMenuProps = {
  /** The customer's edit actions (domain customerEditActions), in order. */
  actions: readonly TCustomerEditAction[];
  onAction: (action: TCustomerEditAction) => void;
};

/** The edit menu of customer_details (spec §2): a button that lists the customer's edit actions. */
export const CustomerEditMenu = ({ actions, onAction }: TCustomerEditMenuProps) => {
  const { t } = useTranslation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (action: TCustomerEditAction) => {
    setAnchor(null);
    onAction(action);
  };
  return (
    <>
      <IconButton
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={t('customerEdit.menu')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        data-testid="customer-edit-menu"
      >
        <EditIcon />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {actions.map((action) => (
          <MenuItem key={action} onClick={() => choose(action)} data-testid={`customer-edit-${action}`}>
            {t(`customerEdit.actions.${action}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
