import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { apiErrorMessage } from '../../../lib/http/base-query';
import { useCancelKeyRequestMutation, useListKeyRequestsQuery } from '../key-requests-api';
import { KeyRequestCard } from './key-request-card';

/**
 * "My requests" (issue 30): the signed-in shop's own key requests to its parent, newest first,
 * fetched afresh when shown (the parent decides them elsewhere), each pending one with Withdraw.
 */
export const SentKeyRequests = () => {
  const { t } = useTranslation();
  const requests = useListKeyRequestsQuery('sent', { refetchOnMountOrArgChange: true });
  const [cancel, { isLoading: isCancelling, originalArgs }] = useCancelKeyRequestMutation();

  const withdraw = async (requestId: number) => {
    const result = await cancel({ request_id: requestId });
    if (result.data) enqueueSnackbar(t('keyRequests.withdrawn'), { variant: 'success' });
    else
      enqueueSnackbar(apiErrorMessage(result.error, t('keyRequests.failed')), {
        variant: 'error',
      });
  };

  if (requests.isLoading) return <Skeleton variant="rounded" height={140} />;
  if (!requests.data)
    return (
      <LoadError
        message={apiErrorMessage(requests.error, t('keyRequests.loadFailed'))}
        onRetry={() => void requests.refetch()}
      />
    );
  if (requests.data.length === 0)
    return (
      <Typography color="text.secondary" data-testid="key-requests-empty-sent">
        {t('keyRequests.emptySent')}
      </Typography>
    );
  return (
    <Stack spacing={1.5} data-testid="key-requests-sent">
      {requests.data.map((request) => (
        <KeyRequestCard
          key={request.id}
          request={request}
          box="sent"
          actions={
            request.status === 'pending' ? (
              <Button
                size="small"
                color="inherit"
                loading={isCancelling && originalArgs?.request_id === request.id}
                onClick={() => void withdraw(request.id)}
                data-testid={`key-request-withdraw-${request.id}`}
              >
                {t('keyRequests.withdraw')}
              </Button>
            ) : undefined
          }
        />
      ))}
    </Stack>
  );
};
