import { zodResolver } from '@hookform/resolvers/zod';
import type { TKeyRequest } from '@kisht/domain/ledger/key-requests.schema';
import { ZDecideKeyRequest } from '@kisht/domain/ledger/key-requests.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormDialog } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { appTypeName } from '../../../lib/app-type-name';
import { getUserType } from '../../../lib/auth-storage';
import { applyServerFieldErrors, fieldErrorText } from '../../../lib/form-errors';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { useDecideKeyRequestMutation, useListKeyRequestsQuery } from '../key-requests-api';
import { KeyRequestCard } from './key-request-card';

/**
 * The requests of the shops below the signed-in one (issue 30): a retailer's mini-retailers', or,
 * for the organisation admin (the admin home's key requests tab), its retailers'. Newest first,
 * fetched afresh when shown; a pending one has Approve (after a confirmation: the keys leave the
 * approver's balance) and Reject (which asks why: the requester reads it). A refusal (already
 * decided, not enough keys) is shown in the server's words.
 */
export const ReceivedKeyRequestsPanel = () => {
  const { t } = useTranslation();
  const isOrganisation = getUserType() === 'admin';
  const requests = useListKeyRequestsQuery('received', { refetchOnMountOrArgChange: true });
  const [decide, { isLoading: isDeciding }] = useDecideKeyRequestMutation();
  const [approving, setApproving] = useState<TKeyRequest | null>(null);
  const [rejecting, setRejecting] = useState<TKeyRequest | null>(null);

  const approve = async () => {
    if (!approving) return;
    const result = await decide({ request_id: approving.id, decision: 'approve' });
    setApproving(null);
    if (result.data) enqueueSnackbar(t('keyRequests.approved'), { variant: 'success' });
    else enqueueSnackbar(apiErrorMessage(result.error, t('keyRequests.failed')), { variant: 'error' });
  };

  return (
    <Stack spacing={1.5} data-testid="key-requests-received">
      <Typography variant="body2" color="text.secondary">
        {t(isOrganisation ? 'keyRequests.receivedIntroOrganisation' : 'keyRequests.receivedIntro')}
      </Typography>
      {requests.isLoading && <Skeleton variant="rounded" height={140} />}
      {requests.isError && (
        <LoadError
          message={apiErrorMessage(requests.error, t('keyRequests.loadFailed'))}
          onRetry={() => void requests.refetch()}
        />
      )}
      {requests.data?.length === 0 && (
        <Typography color="text.secondary" data-testid="key-requests-empty-received">
          {t('keyRequests.emptyReceived')}
        </Typography>
      )}
      {requests.data?.map((request) => (
        <KeyRequestCard
          key={request.id}
          request={request}
          box="received"
          actions={
            request.status === 'pending' ? (
              <>
                <Button
                  size="small"
                  variant="contained"
                  color="success"
                  onClick={() => setApproving(request)}
                  data-testid={`key-request-approve-${request.id}`}
                >
                  {t('keyRequests.approve')}
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => setRejecting(request)}
                  data-testid={`key-request-reject-${request.id}`}
                >
                  {t('keyRequests.reject')}
                </Button>
              </>
            ) : undefined
          }
        />
      ))}
      <ConfirmDialog
        isOpen={approving !== null}
        title={t('keyRequests.approveTitle')}
        body={
          approving
            ? t('keyRequests.approveText', {
                count: approving.quantity,
                type: appTypeName(t, approving.appType),
                name: approving.requesterName,
              })
            : ''
        }
        confirmLabel={t('keyRequests.approve')}
        confirmColor="success"
        isBusy={isDeciding}
        confirmTestId="key-request-approve-confirm"
        onConfirm={() => void approve()}
        onClose={() => setApproving(null)}
      />
      <FormDialog
        isOpen={rejecting !== null}
        onClose={() => setRejecting(null)}
        title={t('keyRequests.rejectTitle')}
        testId="key-request-reject-dialog"
      >
        {rejecting && <RejectForm request={rejecting} onClose={() => setRejecting(null)} />}
      </FormDialog>
    </Stack>
  );
};

type TRejectInput = z.input<typeof ZDecideKeyRequest>;
type TRejectOutput = z.output<typeof ZDecideKeyRequest>;
const rejectResolver = zodResolver<TRejectInput, unknown, TRejectOutput>(ZDecideKeyRequest);
const rejectFieldOf = (field: string) => (field === 'note' ? 'note' : null);

/** Rejects a request with the reason the requester will read (ZDecideKeyRequest: required, ≤ 200). */
const RejectForm = ({ request, onClose }: { request: TKeyRequest; onClose: () => void }) => {
  const { t } = useTranslation();
  const [decide, { isLoading }] = useDecideKeyRequestMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TRejectInput, unknown, TRejectOutput>({
    resolver: rejectResolver,
    defaultValues: { request_id: request.id, decision: 'reject', note: '' },
  });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const result = await decide(values);
    if (result.error) {
      if (isApiError(result.error) && applyServerFieldErrors(result.error, form.setError, rejectFieldOf))
        return;
      setFailure(apiErrorMessage(result.error, t('keyRequests.failed')));
      return;
    }
    enqueueSnackbar(t('keyRequests.rejected'), { variant: 'success' });
    onClose();
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Stack spacing={2}>
          <DialogContentText>
            {t('keyRequests.rejectText', {
              count: request.quantity,
              type: appTypeName(t, request.appType),
              name: request.requesterName,
            })}
          </DialogContentText>
          <Controller
            control={form.control}
            name="note"
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                value={field.value ?? ''}
                label={t('keyRequests.rejectReason')}
                required
                autoFocus
                multiline
                minRows={2}
                error={Boolean(fieldState.error)}
                helperText={
                  fieldErrorText(fieldState.error, () =>
                    (field.value ?? '').trim() === ''
                      ? t('keyRequests.reasonRequired')
                      : t('validation.tooLong'),
                  ) ?? t('keyRequests.rejectReasonHint')
                }
                slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'key-request-reject-note' } }}
              />
            )}
          />
          {failure && (
            <Alert severity="error" data-testid="key-request-reject-failure">
              {failure}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          type="submit"
          variant="contained"
          color="error"
          loading={isLoading}
          data-testid="key-request-reject-submit"
        >
          {t('keyRequests.reject')}
        </Button>
      </DialogActions>
    </form>
  );
};
