import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useSendToHdbMutation } from '../financer-handoff-api';

/**
 * Where the customer's hand-off to HDB stands (issue 13, create-customer-hdb), as the value of a
 * details row: the reference HDB gave, "Sending to HDB…" while pending, or "Failed, retrying" with
 * a button to try now (the server also retries by itself).
 */
export const FinancerHandoffStatus = ({ customer }: { customer: TCustomerDetails }) => {
  const { t } = useTranslation();
  const [send, sendState] = useSendToHdbMutation();
  if (customer.financerHandoffStatus === 'done' && customer.financerReference) {
    return <span data-testid="customer-hdb-reference">{customer.financerReference}</span>;
  }
  if (customer.financerHandoffStatus === 'failed') {
    const retry = async () => {
      const result = await send(customer.id);
      if (result.error) {
        enqueueSnackbar(apiErrorMessage(result.error, t('errors.somethingWentWrong')), {
          variant: 'error',
        });
      }
    };
    return (
      <Stack
        component="span"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', justifyContent: 'flex-end' }}
      >
        <span data-testid="customer-hdb-failed">{t('financer.failedRetrying')}</span>
        <Button
          size="small"
          loading={sendState.isLoading}
          onClick={() => void retry()}
          data-testid="customer-hdb-retry"
        >
          {t('financer.retryNow')}
        </Button>
      </Stack>
    );
  }
  return <span data-testid="customer-hdb-pending">{t('financer.sending')}</span>;
};
