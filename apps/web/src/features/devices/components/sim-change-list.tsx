import type { TSimChange } from '@kisht/domain/devices/devices.schema';
import type { TSimSlot } from '@kisht/domain/devices/protocol.schema';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { appPaths } from '../../../lib/paths';

/** Digits of an ICCID shown: enough to tell cards apart without showing the whole number. */
const ICCID_SHOWN_DIGITS = 4;

/** A slot's card in a few words: operator and the ICCID's last digits, or "empty". */
export const describeSimSlot = (slot: TSimSlot | undefined, t: TFunction): string => {
  if (!slot?.iccid) return t('simChanges.emptySlot');
  const operator = slot.operator ?? t('deviceActions.sims.unknownOperator');
  return t('simChanges.card', { operator, last4: slot.iccid.slice(-ICCID_SHOWN_DIGITS) });
};

/** Slot numbers seen before or after the change, in order. */
const slotsOf = (change: TSimChange): number[] =>
  [...new Set([...change.before, ...change.after].map((slot) => slot.slot))].sort((a, b) => a - b);

/** One change: (the customer, linking to customer_details,) when, and each slot before → after. */
const SimChangeRow = ({ change, isCustomerShown }: { change: TSimChange; isCustomerShown: boolean }) => {
  const { t } = useTranslation();
  return (
    <ListItem divider disableGutters={!isCustomerShown} data-testid={`sim-change-${change.id}`}>
      <Stack spacing={0.25} sx={{ minWidth: 0 }}>
        {isCustomerShown ? (
          <Link
            component={RouterLink}
            to={appPaths.customerDetails.href(change.customerId, 'device')}
            variant="subtitle1"
            sx={{ fontWeight: 600 }}
            data-testid="sim-change-customer"
          >
            {change.customerName}
          </Link>
        ) : null}
        <Typography variant="caption" color="textSecondary" data-testid="sim-change-detected-at">
          {t('simChanges.detectedAt', { time: formatDateTime(change.detectedAt) })}
        </Typography>
        {slotsOf(change).map((slot) => (
          <Typography key={slot} variant="body2" data-testid={`sim-change-${change.id}-slot-${slot}`}>
            {t('simChanges.slotChange', {
              slot,
              before: describeSimSlot(
                change.before.find((item) => item.slot === slot),
                t,
              ),
              after: describeSimSlot(
                change.after.find((item) => item.slot === slot),
                t,
              ),
            })}
          </Typography>
        ))}
      </Stack>
    </ListItem>
  );
};

type TSimChangeListProps = {
  changes: TSimChange[];
  /** sim_changes names each change's customer; customer_details does not need to. */
  isCustomerShown: boolean;
};

/** SIM changes the phones reported, newest first as the API sends them. */
export const SimChangeList = ({ changes, isCustomerShown }: TSimChangeListProps) => (
  <List disablePadding data-testid="sim-change-list">
    {changes.map((change) => (
      <SimChangeRow key={change.id} change={change} isCustomerShown={isCustomerShown} />
    ))}
  </List>
);
