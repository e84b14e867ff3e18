import type { TBulkLockRequest } from '@kisht/domain/devices/devices.schema';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { TCustomerSelection } from '../../../components/bulk-customer-picker';
import { BulkCustomerPicker } from '../../../components/bulk-customer-picker';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { useLockAccess, useUserAccess } from '../../../lib/http/access-api';
import { appPaths, BATCH_ID_PARAM } from '../../../lib/paths';
import { bulkConfirmCopy } from '../bulk-confirm';
import { BulkProgressView } from '../components/bulk-progress-view';
import { useBulkLockUnlockMutation, useGetBulkPreviewQuery } from '../device-api';

type TBulkAction = TBulkLockRequest['action'];
type TBulkFilter = NonNullable<TBulkLockRequest['filter']>;
/** Who a request reaches: every customer a filter matches, or the ones chosen by hand. */
type TBulkTarget = TBulkFilter | 'selection';
const BULK_TARGETS: readonly TBulkTarget[] = ['all_enrolled', 'overdue', 'selection'];

/** The request a choice makes: the filter, or the chosen customers' ids. */
export const bulkRequestOf = (
  action: TBulkAction,
  target: TBulkTarget,
  selection: TCustomerSelection,
): TBulkLockRequest =>
  target === 'selection' ? { action, customer_ids: [...selection.keys()] } : { action, filter: target };

type TBulkLockFormProps = { onSent: (batchId: string) => void };

/**
 * The bulk request form: lock or unlock (each shown only when the access flags allow it), and
 * whom — all enrolled, those with an overdue EMI, or customers chosen from the list — then a
 * confirmation naming how many phones (for a filter, the server's preview count; the filter's
 * name while it loads or if it fails). Customers
 * uninstalled, Apple-removed or with EMIs completed are never targets: the filters leave them out
 * on the server, and the picker does not let them be chosen, so the count leaves them out too.
 */
const BulkLockForm = ({ onSent }: TBulkLockFormProps) => {
  const { t } = useTranslation();
  const targetLabelId = useId();
  const userAccess = useUserAccess();
  const lockAccess = useLockAccess();
  const [bulkLockUnlock, bulkState] = useBulkLockUnlockMutation();
  const canBulk = userAccess.flags.bulk_retailer === '1';
  const canLockOrUnlock = userAccess.flags.lock_unlock === '1';
  const allowedActions = (['lock', 'unlock'] as const).filter(
    (candidate) => canLockOrUnlock && lockAccess.flags[candidate] === '1',
  );
  const [chosenAction, setChosenAction] = useState<TBulkAction>('lock');
  const action = allowedActions.includes(chosenAction) ? chosenAction : allowedActions[0];
  const [target, setTarget] = useState<TBulkTarget>('all_enrolled');
  const [selection, setSelection] = useState<TCustomerSelection>(new Map());
  const [isConfirming, setIsConfirming] = useState(false);
  // A request that reached no phone (every chosen customer left out) has no progress to follow.
  const [nothingSentCount, setNothingSentCount] = useState<number | null>(null);

  const hasTargets = target !== 'selection' || selection.size > 0;
  const canSubmit = userAccess.isLoaded && canBulk && action !== undefined && hasTargets;

  const toggleCustomer = (customer: { id: number; firstName: string; lastName: string }) =>
    setSelection((current) => {
      const next = new Map(current);
      if (next.has(customer.id)) next.delete(customer.id);
      else next.set(customer.id, `${customer.firstName} ${customer.lastName}`);
      return next;
    });

  const send = async () => {
    if (!action) return;
    const result = await bulkLockUnlock(bulkRequestOf(action, target, selection));
    setIsConfirming(false);
    if (!result.data) return;
    if (result.data.total === 0) setNothingSentCount(result.data.skipped.length);
    else onSent(result.data.batchId);
  };

  // A filter's reach is asked for when the confirmation opens (the server counts as it will send).
  const preview = useGetBulkPreviewQuery(
    { action: action ?? 'lock', filter: target === 'selection' ? 'all_enrolled' : target },
    { skip: !isConfirming || target === 'selection' || action === undefined },
  );
  const phoneCount = target === 'selection' ? selection.size : preview.data?.total;
  const confirm = bulkConfirmCopy(t, {
    action: action ?? 'lock',
    filter: target === 'selection' ? null : target,
    phoneCount,
  });

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="textSecondary">
        {t('bulkLock.intro')}
      </Typography>
      {nothingSentCount !== null ? (
        <Alert severity="warning" data-testid="bulk-nothing-sent" onClose={() => setNothingSentCount(null)}>
          {t('bulkLock.nothingSent', { count: nothingSentCount })}
        </Alert>
      ) : null}
      {userAccess.isLoaded && !canBulk ? (
        <Alert severity="warning" data-testid="bulk-no-access">
          {t('bulkLock.noBulkAccess')}
        </Alert>
      ) : null}
      {action === undefined ? (
        <Alert severity="warning" data-testid="bulk-no-lock-access">
          {t('bulkLock.noLockAccess')}
        </Alert>
      ) : (
        <Card>
          <CardContent>
            <Stack spacing={2.5}>
              <FormControl>
                <FormLabel sx={{ mb: 1 }}>{t('bulkLock.actionLabel')}</FormLabel>
                <ToggleButtonGroup
                  exclusive
                  fullWidth
                  value={action}
                  onChange={(_event, next: TBulkAction | null) => {
                    if (next) setChosenAction(next);
                  }}
                  aria-label={t('bulkLock.actionLabel')}
                >
                  {allowedActions.map((value) => (
                    <ToggleButton
                      key={value}
                      value={value}
                      color={value === 'lock' ? 'error' : 'success'}
                      data-testid={`bulk-action-${value}`}
                    >
                      {value === 'lock' ? <LockIcon sx={{ mr: 1 }} /> : <LockOpenIcon sx={{ mr: 1 }} />}
                      {t(`bulkLock.${value}`)}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
              </FormControl>
              <FormControl>
                <FormLabel id={targetLabelId}>{t('bulkLock.customersLabel')}</FormLabel>
                <RadioGroup
                  aria-labelledby={targetLabelId}
                  value={target}
                  onChange={(_event, next) => setTarget(next as TBulkTarget)}
                >
                  {BULK_TARGETS.map((value) => (
                    <FormControlLabel
                      key={value}
                      value={value}
                      control={
                        <Radio slotProps={{ input: { 'data-testid': `bulk-filter-${value}` } as object }} />
                      }
                      label={
                        <Stack sx={{ py: 0.5 }}>
                          <Typography variant="body1">{t(`bulkLock.filters.${value}`)}</Typography>
                          <Typography variant="caption" color="textSecondary">
                            {t(`bulkLock.filterHelp.${value}`)}
                          </Typography>
                        </Stack>
                      }
                    />
                  ))}
                </RadioGroup>
                <Typography variant="caption" color="textSecondary" data-testid="bulk-excluded-note">
                  {t('bulkLock.excludedNote')}
                  {action === 'lock' ? ` ${t('bulkLock.paidUpNote')}` : ''}
                </Typography>
              </FormControl>
              {target === 'selection' ? (
                <BulkCustomerPicker
                  selected={selection}
                  onToggle={toggleCustomer}
                  onClear={() => setSelection(new Map())}
                />
              ) : null}
              <Button
                variant="contained"
                size="large"
                color={action === 'lock' ? 'error' : 'success'}
                disabled={!canSubmit}
                onClick={() => setIsConfirming(true)}
                data-testid="bulk-submit"
              >
                {t('bulkLock.submit')}
              </Button>
              {target === 'selection' && selection.size === 0 ? (
                <Typography variant="caption" color="textSecondary" sx={{ textAlign: 'center' }}>
                  {t('bulkLock.chooseCustomers')}
                </Typography>
              ) : null}
            </Stack>
          </CardContent>
        </Card>
      )}
      <ConfirmDialog
        isOpen={isConfirming}
        title={action ? confirm.title : ''}
        body={confirm.body}
        confirmLabel={action ? t(`bulkLock.${action}`) : ''}
        confirmColor={action === 'unlock' ? 'success' : 'error'}
        confirmTestId="bulk-confirm"
        isBusy={bulkState.isLoading}
        onConfirm={() => void send()}
        onClose={() => setIsConfirming(false)}
      />
    </Stack>
  );
};

/**
 * Spec §2 multiple_lock_unlock: lock or unlock many phones in one request (multiple_device_lock_
 * unlock), for every enrolled customer, those with an overdue EMI, or customers chosen from the
 * list; then its progress, polled until every command has ended. The request's batch id is kept
 * in the URL (`?batch_id=`), so a reload or Back comes back to its progress. Needs the
 * bulk_retailer access flag (spec §6, off by default) to send.
 */
export const MultipleLockUnlockPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const batchId = searchParams.get(BATCH_ID_PARAM);
  return (
    <>
      <PageHeader title={t('pages.multiple_lock_unlock')} />
      {batchId ? (
        <BulkProgressView
          key={batchId}
          batchId={batchId}
          onStartAgain={() => navigate(appPaths.multipleLockUnlock.href())}
        />
      ) : (
        <BulkLockForm onSent={(sentBatchId) => navigate(appPaths.multipleLockUnlock.href(sentBatchId))} />
      )}
    </>
  );
};
