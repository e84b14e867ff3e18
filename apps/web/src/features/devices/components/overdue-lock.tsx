import LockIcon from '@mui/icons-material/Lock';
import Button from '@mui/material/Button';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useLockAccess, useUserAccess } from '../../../lib/http/access-api';
import { appPaths } from '../../../lib/paths';
import { bulkConfirmCopy } from '../bulk-confirm';
import { useBulkLockUnlockMutation, useGetBulkPreviewQuery, useLockDeviceMutation } from '../device-api';

/** Whether the signed-in shop may lock phones (spec §6 lock_unlock and the lock access flag). */
const useCanLock = () => {
  const userAccess = useUserAccess();
  const lockAccess = useLockAccess();
  return {
    canLock: userAccess.flags.lock_unlock === '1' && lockAccess.flags.lock === '1',
    canBulk: userAccess.flags.bulk_retailer === '1',
  };
};

/**
 * "Lock" on an overdue row of up_coming_emi (issue 28): after a confirmation naming the customer,
 * locks the phone for its overdue EMI (the command gate's reason when none is chosen, spec issue
 * 25); a refusal (paid up since, a managed-Android phone, no phone enrolled) is toasted by the store
 * in the user's language. Hidden without lock access.
 */
export const OverdueLockButton = ({
  customerId,
  customerName,
}: {
  customerId: number;
  customerName: string;
}) => {
  const { t } = useTranslation();
  const { canLock } = useCanLock();
  const [lockDevice, lockState] = useLockDeviceMutation();
  const [isConfirming, setIsConfirming] = useState(false);
  if (!canLock) return null;
  const lock = async () => {
    const result = await lockDevice({ customer_id: customerId });
    setIsConfirming(false);
    if (result.data) enqueueSnackbar(t('upcoming.lockSent', { name: customerName }), { variant: 'success' });
  };
  return (
    <>
      <Button
        size="small"
        color="error"
        variant="outlined"
        startIcon={<LockIcon />}
        onClick={() => setIsConfirming(true)}
        data-testid={`overdue-lock-${customerId}`}
      >
        {t('device.lock')}
      </Button>
      <ConfirmDialog
        isOpen={isConfirming}
        title={t('upcoming.lockOneTitle', { name: customerName })}
        body={t('upcoming.lockOneBody')}
        confirmLabel={t('device.lock')}
        confirmColor="error"
        confirmTestId="overdue-lock-confirm"
        isBusy={lockState.isLoading}
        onConfirm={() => void lock()}
        onClose={() => setIsConfirming(false)}
      />
    </>
  );
};

/**
 * "Lock all overdue" above the Overdue tab of up_coming_emi (issue 28): the same preview and
 * confirmation as multiple_lock_unlock's "with an overdue EMI" (the server's count of the phones it
 * will reach), then the bulk request, whose progress opens on multiple_lock_unlock. Hidden without
 * lock access or the bulk_retailer flag (spec §6).
 */
export const LockAllOverdueButton = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { canLock, canBulk } = useCanLock();
  const [isConfirming, setIsConfirming] = useState(false);
  const [bulkLockUnlock, bulkState] = useBulkLockUnlockMutation();
  const preview = useGetBulkPreviewQuery({ action: 'lock', filter: 'overdue' }, { skip: !isConfirming });
  if (!canLock || !canBulk) return null;
  const confirm = bulkConfirmCopy(t, { action: 'lock', filter: 'overdue', phoneCount: preview.data?.total });
  const send = async () => {
    const result = await bulkLockUnlock({ action: 'lock', filter: 'overdue' });
    setIsConfirming(false);
    if (!result.data) return;
    if (result.data.total === 0) {
      enqueueSnackbar(t('bulkLock.nothingSent', { count: result.data.skipped.length }), {
        variant: 'warning',
      });
      return;
    }
    navigate(appPaths.multipleLockUnlock.href(result.data.batchId));
  };
  return (
    <>
      <Button
        color="error"
        variant="contained"
        startIcon={<LockIcon />}
        onClick={() => setIsConfirming(true)}
        data-testid="lock-all-overdue"
      >
        {t('upcoming.lockAllOverdue')}
      </Button>
      <ConfirmDialog
        isOpen={isConfirming}
        title={confirm.title}
        body={confirm.body}
        confirmLabel={t('bulkLock.lock')}
        confirmColor="error"
        confirmTestId="bulk-confirm"
        isBusy={bulkState.isLoading}
        onConfirm={() => void send()}
        onClose={() => setIsConfirming(false)}
      />
    </>
  );
};
