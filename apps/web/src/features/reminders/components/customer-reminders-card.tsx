import type { TReminderChannel } from '@kisht/domain/reminders/reminders.rules';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import SmsIcon from '@mui/icons-material/Sms';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { formatDate, formatDateTime } from '../../../lib/format';
import { channelKey, offsetWords, STATE_COLOURS, stateKey } from '../reminder-words';
import { useGetCustomerRemindersQuery, useSetWhatsAppOptOutMutation } from '../reminders-api';

const CHANNEL_ICONS: Record<TReminderChannel, ReactNode> = {
  phone: <PhoneAndroidIcon />,
  sms: <SmsIcon />,
  whatsapp: <WhatsAppIcon />,
};

/**
 * customer_details' "Payment reminders" card (issue 29): the reminders sent to the customer or
 * waiting (channel, instalment and day, state with its time, why one failed), newest first, and
 * the customer's WhatsApp choice as a switch (off: they refused WhatsApp; SMS and the phone still
 * remind them). Offline it says the reminders are not kept.
 */
export const CustomerRemindersCard = ({
  customerId,
  isOffline = false,
}: {
  customerId: number;
  isOffline?: boolean;
}) => {
  const { t } = useTranslation();
  const reminders = useGetCustomerRemindersQuery(customerId, { skip: isOffline });
  const [setOptOut, saving] = useSetWhatsAppOptOutMutation();
  const title = t('reminders.card.title');
  if (isOffline) {
    return (
      <SectionCard title={title} testId="customer-reminders-card">
        <Typography variant="body2" color="textSecondary">
          {t('common.notKeptOffline')}
        </Typography>
      </SectionCard>
    );
  }
  if (reminders.isLoading) return <Skeleton variant="rounded" height={96} />;
  if (!reminders.data) return <LoadError message={reminders.error?.message} onRetry={reminders.refetch} />;
  const { whatsappOptOut, items } = reminders.data;
  return (
    <SectionCard title={title} testId="customer-reminders-card">
      <FormControlLabel
        control={
          <Switch
            checked={!whatsappOptOut}
            disabled={saving.isLoading}
            onChange={(event) => void setOptOut({ customer_id: customerId, opt_out: !event.target.checked })}
            slotProps={{ input: { 'aria-describedby': 'whatsapp-reminders-help' } }}
            data-testid="whatsapp-reminders-switch"
          />
        }
        label={t('reminders.card.whatsapp')}
      />
      <Typography id="whatsapp-reminders-help" variant="body2" color="textSecondary" sx={{ mb: 1 }}>
        {whatsappOptOut ? t('reminders.card.whatsappOff') : t('reminders.card.whatsappOn')}
      </Typography>
      {items.length === 0 ? (
        <Typography variant="body2" color="textSecondary" data-testid="customer-reminders-empty">
          {t('reminders.card.empty')}
        </Typography>
      ) : (
        <List disablePadding dense>
          {items.map((reminder) => (
            <ListItem key={reminder.id} disableGutters divider data-testid={`reminder-${reminder.id}`}>
              <ListItemIcon sx={{ minWidth: 36 }} aria-label={t(channelKey(reminder.channel))}>
                {CHANNEL_ICONS[reminder.channel]}
              </ListItemIcon>
              <ListItemText
                sx={{ pr: 1 }}
                primary={t('reminders.card.line', {
                  no: reminder.instalmentNo,
                  date: formatDate(reminder.dueDate),
                  when: offsetWords(t, reminder.offsetDays),
                })}
                secondary={
                  reminder.error ??
                  formatDateTime(
                    reminder.readAt ?? reminder.deliveredAt ?? reminder.sentAt ?? reminder.sendAfter,
                  )
                }
              />
              <Chip
                size="small"
                sx={{ flexShrink: 0 }}
                label={t(stateKey(reminder.state))}
                color={STATE_COLOURS[reminder.state]}
                variant={
                  reminder.state === 'queued' || reminder.state === 'cancelled' ? 'outlined' : 'filled'
                }
              />
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
};
