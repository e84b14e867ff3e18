import type { TLedgerMovement, TLedgerMovementKind } from '@kisht/domain/ledger/ledger.schema';
import AddCardIcon from '@mui/icons-material/AddCard';
import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturn';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import PhonelinkLockIcon from '@mui/icons-material/PhonelinkLock';
import ReplayIcon from '@mui/icons-material/Replay';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UndoIcon from '@mui/icons-material/Undo';
import Avatar from '@mui/material/Avatar';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appTypeName } from '../../../lib/app-type-name';
import { formatDateTime } from '../../../lib/format';

const KIND_ICONS: Record<TLedgerMovementKind, ReactNode> = {
  top_up: <AddCardIcon />,
  transfer: <SwapHorizIcon />,
  reserve: <HourglassTopIcon />,
  release: <UndoIcon />,
  key_use: <PhonelinkLockIcon />,
  refund: <ReplayIcon />,
  purchase: <ShoppingCartIcon />,
  return: <AssignmentReturnIcon />,
};

/**
 * One key movement of top_up_history: its kind (icon and label), the keys as +n (arrived) or −n
 * (left) with the app type's name, who the other side was (the other shop of a transfer, else
 * the organisation), the customer a key was used on, the note, and the date (+05:30,
 * DD-MM-YYYY hh:mm A).
 */
export const MovementRow = ({ movement }: { movement: TLedgerMovement }) => {
  const { t } = useTranslation();
  const isIn = movement.direction === 'in';
  const counterparty = movement.counterpartyName
    ? t(isIn ? 'ledger.history.from' : 'ledger.history.to', { name: movement.counterpartyName })
    : movement.kind === 'top_up' || movement.kind === 'purchase' || movement.kind === 'return'
      ? t('ledger.history.organisation')
      : null;
  const details = [
    counterparty,
    movement.customerName ? t('ledger.history.customer', { name: movement.customerName }) : null,
    movement.note,
  ].filter(Boolean);
  return (
    <ListItem divider data-testid="ledger-movement" data-kind={movement.kind}>
      <ListItemAvatar>
        <Avatar
          sx={{ bgcolor: isIn ? 'success.light' : 'grey.300', color: isIn ? 'success.dark' : 'text.primary' }}
        >
          {KIND_ICONS[movement.kind]}
        </Avatar>
      </ListItemAvatar>
      <ListItemText
        primary={
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {t(`ledger.kind.${movement.kind}`)}
            </Typography>
            <Typography
              component="span"
              sx={{ fontWeight: 700, color: isIn ? 'success.main' : 'error.main', whiteSpace: 'nowrap' }}
              data-testid="ledger-movement-quantity"
            >
              {isIn ? '+' : '−'}
              {movement.quantity}
            </Typography>
          </Stack>
        }
        secondary={
          <>
            <Typography component="span" variant="body2" sx={{ display: 'block' }}>
              {appTypeName(t, movement.appType)}
            </Typography>
            {details.length > 0 && (
              <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                {details.join(' · ')}
              </Typography>
            )}
            <Typography
              component="span"
              variant="caption"
              color="textSecondary"
              data-testid="ledger-movement-date"
            >
              {formatDateTime(movement.createdAt)}
            </Typography>
          </>
        }
      />
    </ListItem>
  );
};
