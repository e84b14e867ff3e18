import type { TCustomerStatus } from '@kisht/domain/common/enums';
import { CUSTOMER_STATUS_CODES, statusWord } from '@kisht/domain/common/enums';
import { canChangeStatus } from '@kisht/domain/customers/customer-status';
import type { TStatusChange } from '@kisht/domain/customers/customers.schema';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { formatDateTime } from '../../../lib/format';
import { useGetStatusHistoryQuery } from '../customers-api';
import { ChangeStatusDialog } from './change-status-dialog';

const isStatusCode = (value: number): value is TCustomerStatus =>
  CUSTOMER_STATUS_CODES.some((code) => code === value);

/** The statuses a retailer may move a customer to by hand from `status` (domain canChangeStatus). */
export const manualStatusTargets = (status: TCustomerStatus): TCustomerStatus[] =>
  CUSTOMER_STATUS_CODES.filter((to) => to !== status && canChangeStatus(status, to));

const StatusTrail = ({ changes }: { changes: TStatusChange[] }) => {
  const { t } = useTranslation();
  const label = (status: number) =>
    isStatusCode(status) ? t(`customerStatus.${statusWord(status)}`) : String(status);
  if (changes.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary" data-testid="status-trail-empty">
        {t('statusTrail.empty')}
      </Typography>
    );
  }
  return (
    <List disablePadding dense data-testid="status-trail">
      {changes.map((change) => (
        <ListItem
          key={`${change.at}-${change.fromStatus}-${change.toStatus}`}
          disableGutters
          divider
          data-testid="status-trail-entry"
        >
          <ListItemText
            primary={
              change.fromStatus === null
                ? t('statusTrail.created', { to: label(change.toStatus) })
                : t('statusTrail.change', { from: label(change.fromStatus), to: label(change.toStatus) })
            }
            secondary={
              <>
                <span>
                  {t('statusTrail.meta', {
                    date: formatDateTime(change.at),
                    name: change.actorName ?? t('statusTrail.system'),
                  })}
                </span>
                {change.reason ? (
                  <>
                    <br />
                    <span>{t('statusTrail.reason', { reason: change.reason })}</span>
                  </>
                ) : null}
              </>
            }
          />
        </ListItem>
      ))}
    </List>
  );
};

type TStatusCardProps = { customerId: number; status: TCustomerStatus };

/**
 * The customer's status (the header shows what it is): Change status (only to the statuses canChangeStatus allows,
 * with a reason) and the status trail (who, when, from → to, why), newest first.
 */
export const StatusCard = ({ customerId, status }: TStatusCardProps) => {
  const { t } = useTranslation();
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const history = useGetStatusHistoryQuery(customerId);
  const targets = manualStatusTargets(status);

  // A status that changes on its own (the phone enrolled) adds to the trail: fetch it again.
  const shownStatusRef = useRef(status);
  const { refetch } = history;
  useEffect(() => {
    if (shownStatusRef.current === status) return;
    shownStatusRef.current = status;
    void refetch();
  }, [status, refetch]);

  const renderTrail = () => {
    if (history.isLoading) return <Skeleton variant="rounded" height={64} />;
    if (!history.data) return <LoadError message={history.error?.message} onRetry={history.refetch} />;
    return <StatusTrail changes={history.data} />;
  };

  return (
    <SectionCard
      title={t('statusTrail.title')}
      testId="customer-status-card"
      action={
        <Button
          size="small"
          variant="outlined"
          disabled={targets.length === 0}
          onClick={() => setIsDialogOpen(true)}
          data-testid="change-status-open"
        >
          {t('statusChange.open')}
        </Button>
      }
    >
      <Stack spacing={1.5}>
        {targets.length === 0 ? (
          <Typography variant="caption" color="textSecondary" data-testid="change-status-none">
            {t('statusChange.noneAllowed')}
          </Typography>
        ) : null}
        {renderTrail()}
      </Stack>
      {targets.length > 0 ? (
        <ChangeStatusDialog
          customerId={customerId}
          currentStatus={status}
          targets={targets}
          isOpen={isDialogOpen}
          onClose={() => setIsDialogOpen(false)}
        />
      ) : null}
    </SectionCard>
  );
};
