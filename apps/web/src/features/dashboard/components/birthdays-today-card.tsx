import type { TBirthdayCustomer } from '@kisht/domain/messages/messages.schema';
import CakeIcon from '@mui/icons-material/Cake';
import PhoneIcon from '@mui/icons-material/Phone';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/section-card';
import { formatMobile } from '../../../lib/format';
import { useGetBirthdaysTodayQuery } from '../birthdays-api';

type TBirthdaysTodayCardProps = {
  /**
   * "Send wishes" for a customer whose phone can show a message, composed in by the app (sending
   * a message belongs to the devices feature).
   */
  renderSendWishes?: ((customer: TBirthdayCustomer) => ReactNode) | undefined;
};

/**
 * "Customers' birthdays today" (issue 16): the customers of the signed-in shop (and, for a
 * retailer, its mini-retailers') born on today's +05:30 day, at most 50, each with "Send wishes"
 * when the phone can show a message, else a call link. Nothing shows on a day without one.
 */
export const BirthdaysTodayCard = ({ renderSendWishes }: TBirthdaysTodayCardProps) => {
  const { t } = useTranslation();
  const { data } = useGetBirthdaysTodayQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data || data.customers.length === 0) return null;
  const more = data.total - data.customers.length;
  return (
    <SectionCard title={t('birthday.cardTitle')} testId="birthdays-today">
      <List dense disablePadding>
        {data.customers.map((customer) => (
          <ListItem key={customer.id} divider disableGutters data-testid={`birthday-customer-${customer.id}`}>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', width: '100%' }}>
              <CakeIcon color="secondary" aria-hidden />
              <ListItemText
                primary={customer.name}
                secondary={formatMobile(customer.mobile)}
                sx={{ minWidth: 0 }}
                slotProps={{ primary: { noWrap: true } }}
              />
              {customer.canMessage && renderSendWishes ? (
                renderSendWishes(customer)
              ) : (
                <Button size="small" startIcon={<PhoneIcon />} href={`tel:${customer.mobile}`}>
                  {t('birthday.call')}
                </Button>
              )}
            </Stack>
          </ListItem>
        ))}
      </List>
      {more > 0 ? (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          {t('birthday.more', { count: more })}
        </Typography>
      ) : null}
    </SectionCard>
  );
};
