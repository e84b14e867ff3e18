import { lockStatusLabel } from '@kisht/domain/common/enums';
import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import Avatar from '@mui/material/Avatar';
import Chip from '@mui/material/Chip';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomerStatusChip } from '../../../components/customer-status-chip';
import { formatDateTime, formatMobile } from '../../../lib/format';

type TCustomerRowProps = {
  customer: TCustomerListItem;
  onOpen: (customer: TCustomerListItem) => void;
  /** Its position in a virtualised list (`data-index`, read by the virtualizer with `ref`). */
  index?: number;
  ref?: Ref<HTMLLIElement>;
};

/** One customer in the list: name, mobile, product, status, lock status and when they were added. */
export const CustomerRow = ({ customer, onOpen, index, ref }: TCustomerRowProps) => {
  const { t } = useTranslation();
  const name = `${customer.firstName} ${customer.lastName}`;
  const lockLabel = lockStatusLabel(customer.lockStatus);
  return (
    <ListItem ref={ref} data-index={index} disablePadding divider data-testid={`customer-row-${customer.id}`}>
      <ListItemButton onClick={() => onOpen(customer)} sx={{ alignItems: 'flex-start', py: 1.5 }}>
        <ListItemAvatar>
          <Avatar sx={{ bgcolor: 'primary.light' }}>{customer.firstName.charAt(0).toUpperCase()}</Avatar>
        </ListItemAvatar>
        <ListItemText
          disableTypography
          primary={
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }} noWrap>
              {name}
            </Typography>
          }
          secondary={
            <Stack spacing={0.75} sx={{ mt: 0.25 }}>
              <Typography variant="body2" color="textSecondary" noWrap>
                {t('customers.rowSubtitle', {
                  mobile: formatMobile(customer.mobile),
                  product: customer.productName,
                })}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                <CustomerStatusChip status={customer.status} />
                <Chip
                  size="small"
                  variant="outlined"
                  color={lockLabel === 'Locked' ? 'error' : 'default'}
                  icon={lockLabel === 'Locked' ? <LockIcon /> : <LockOpenIcon />}
                  label={t(`lockStatus.${lockLabel}`)}
                  data-testid="customer-lock-status"
                />
              </Stack>
              <Typography variant="caption" color="textSecondary">
                {t('customers.createdAt', { date: formatDateTime(customer.createdAt) })}
              </Typography>
            </Stack>
          }
        />
      </ListItemButton>
    </ListItem>
  );
};
