import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import Button from '@mui/material/Button';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { useSendEmiAlertMutation } from '../emi-api';

/**
 * "Send reminder" for a late loan (issue 28's Overdue tab, issue 29's collections list): the
 * emi_alert command (send_emialert, as emi_details sends it) with what is due; its state is
 * toasted, a refusal by the store.
 */
export const SendReminderButton = ({ customerId, testId }: { customerId: number; testId: string }) => {
  const { t } = useTranslation();
  const [sendEmiAlert, state] = useSendEmiAlertMutation();
  const send = async () => {
    const result = await sendEmiAlert({ customer_id: customerId });
    if (result.data) enqueueSnackbar(t(`emi.alert.states.${result.data.state}`), { variant: 'success' });
  };
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<NotificationsActiveIcon />}
      onClick={() => void send()}
      loading={state.isLoading}
      data-testid={testId}
    >
      {t('upcoming.remind')}
    </Button>
  );
};
