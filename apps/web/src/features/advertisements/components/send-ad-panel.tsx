import type { TAdvertisement } from '@kisht/domain/advertisements/advertisements.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BulkCustomerPicker, type TCustomerSelection } from '../../../components/bulk-customer-picker';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SectionCard } from '../../../components/section-card';
import { isApiError } from '../../../lib/http/base-query';
import { useGetAdvertisementSendPreviewQuery, useSendAdvertisementMutation } from '../advertisements-api';

/** Whom an ad goes to: every enrolled phone, those with something overdue, or customers chosen by hand. */
type TAdTarget = 'all_enrolled' | 'overdue' | 'selection';
const AD_TARGETS: readonly TAdTarget[] = ['all_enrolled', 'overdue', 'selection'];

/**
 * "Send to customers" for one ad, as multiple_lock_unlock chooses: all enrolled, those overdue,
 * or customers picked from the list (the shared picker); then a confirmation naming how many
 * phones (a filter: the server's preview count) and the send. Calls `onSent` with the send's id.
 */
export const SendAdPanel = ({
  ad,
  onSent,
  onCancel,
}: {
  ad: TAdvertisement;
  onSent: (sendId: string) => void;
  onCancel: () => void;
}) => {
  const { t } = useTranslation();
  const labelId = useId();
  const [target, setTarget] = useState<TAdTarget>('all_enrolled');
  const [selection, setSelection] = useState<TCustomerSelection>(new Map());
  const [isConfirming, setIsConfirming] = useState(false);
  const [nothingSent, setNothingSent] = useState(false);
  const [send, state] = useSendAdvertisementMutation();
  const preview = useGetAdvertisementSendPreviewQuery(
    { advertisementId: ad.id, filter: target === 'overdue' ? 'overdue' : 'all_enrolled' },
    { skip: !isConfirming || target === 'selection' },
  );
  const phoneCount = target === 'selection' ? selection.size : preview.data?.total;

  const toggle = (customer: { id: number; firstName: string; lastName: string }) =>
    setSelection((current) => {
      const next = new Map(current);
      if (next.has(customer.id)) next.delete(customer.id);
      else next.set(customer.id, `${customer.firstName} ${customer.lastName}`);
      return next;
    });

  const confirm = async () => {
    const result = await send(
      target === 'selection'
        ? { advertisement_id: ad.id, customer_ids: [...selection.keys()] }
        : { advertisement_id: ad.id, filter: target },
    );
    setIsConfirming(false);
    if (!result.data) return;
    if (result.data.total === 0) setNothingSent(true);
    else onSent(result.data.id);
  };

  return (
    <SectionCard title={t('advertisements.send.title', { title: ad.title })} testId="ad-send-panel">
      <Stack spacing={2}>
        {nothingSent ? (
          <Alert severity="warning" onClose={() => setNothingSent(false)} data-testid="ad-nothing-sent">
            {t('advertisements.send.nothingSent')}
          </Alert>
        ) : null}
        {isApiError(state.error) ? <Alert severity="error">{state.error.message}</Alert> : null}
        <FormControl>
          <FormLabel id={labelId}>{t('advertisements.send.whom')}</FormLabel>
          <RadioGroup
            aria-labelledby={labelId}
            value={target}
            onChange={(_event, next) => setTarget(next as TAdTarget)}
          >
            {AD_TARGETS.map((value) => (
              <FormControlLabel
                key={value}
                value={value}
                control={<Radio slotProps={{ input: { 'data-testid': `ad-target-${value}` } as object }} />}
                label={t(`advertisements.send.targets.${value}`)}
              />
            ))}
          </RadioGroup>
          <Typography variant="caption" color="textSecondary">
            {t('advertisements.send.excludedNote')}
          </Typography>
        </FormControl>
        {target === 'selection' ? (
          <BulkCustomerPicker
            selected={selection}
            onToggle={toggle}
            onClear={() => setSelection(new Map())}
          />
        ) : null}
        <Stack direction="row" spacing={1}>
          <Button color="inherit" onClick={onCancel}>
            {t('advertisements.send.cancel')}
          </Button>
          <Button
            variant="contained"
            sx={{ flex: 1 }}
            disabled={target === 'selection' && selection.size === 0}
            onClick={() => setIsConfirming(true)}
            data-testid="ad-send-submit"
          >
            {t('advertisements.send.submit')}
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        isOpen={isConfirming}
        title={
          phoneCount === undefined
            ? t('advertisements.send.confirmCounting')
            : t('advertisements.send.confirmTitle', { count: phoneCount })
        }
        body={t('advertisements.send.confirmBody', {
          skipped: target === 'selection' ? 0 : (preview.data?.skipped ?? 0),
        })}
        confirmLabel={t('advertisements.send.confirm')}
        confirmTestId="ad-send-confirm"
        isBusy={state.isLoading}
        onConfirm={() => void confirm()}
        onClose={() => setIsConfirming(false)}
      />
    </SectionCard>
  );
};
