import type { TCustomerListItem } from '@kisht/domain/customers/customers.schema';
import Avatar from '@mui/material/Avatar';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CustomerStatusChip } from '../../../components/customer-status-chip';
import { formatMobile } from '../../../lib/format';
import { useMediaUrl } from '../../../lib/http/use-media-url';

type TCustomerSummaryHeaderProps = {
  customer: Pick<TCustomerListItem, 'firstName' | 'lastName' | 'mobile' | 'status' | 'productName'> & {
    /** The customer photo's image_name (customer details), or null/absent for the initial. */
    photoImageName?: string | null;
  };
};

/** Who the screen is about: photo (or initial), name, status, mobile and product. */
export const CustomerSummaryHeader = ({ customer }: TCustomerSummaryHeaderProps) => {
  const { t } = useTranslation();
  const photo = useMediaUrl(customer.photoImageName);
  const name = `${customer.firstName} ${customer.lastName}`;
  return (
    <Card>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Avatar
            src={photo.url ?? undefined}
            alt={photo.url ? t('customerMedia.photoOf', { name }) : undefined}
            sx={{ width: 52, height: 52, bgcolor: 'primary.main', fontSize: 22 }}
            data-testid="customer-avatar"
          >
            {customer.firstName.charAt(0).toUpperCase()}
          </Avatar>
          <Stack sx={{ minWidth: 0, flex: 1 }} spacing={0.5}>
            <Typography variant="h6" component="h2" noWrap data-testid="customer-name">
              {name}
            </Typography>
            <Typography variant="body2" color="textSecondary" noWrap>
              {formatMobile(customer.mobile)}
            </Typography>
            <Typography variant="body2" color="textSecondary" noWrap>
              {customer.productName}
            </Typography>
          </Stack>
          <CustomerStatusChip status={customer.status} />
        </Stack>
      </CardContent>
    </Card>
  );
};
