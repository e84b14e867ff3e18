import type { TCommandName } from '@kisht/domain/common/enums';
import { isPendingCommandState } from '@kisht/domain/common/enums';
import type { TCommandHistoryItem } from '@kisht/domain/devices/devices.schema';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { SectionCard } from '../../../components/section-card';
import { formatDateTime } from '../../../lib/format';
import { useCancelCommandMutation } from '../device-api';
import { isWaitingForRunAt } from '../device-controls';
import { CommandStateChip } from './command-state-chip';

/** Commands shown before "Show all": the newest ones are what a retailer looks for. */
export const HISTORY_VISIBLE_ROWS = 20;

/** Commands whose arguments and result are never shown: change_pin carries the new PIN (sealed). */
export const SILENT_COMMANDS: readonly TCommandName[] = ['change_pin'];

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * What a done command produced, in words: a location's coordinates, how many SIMs sim_info found,
 * else its simple values as `key: value`. Null when there is nothing to show.
 */
export const describeResult = (
  item: Pick<TCommandHistoryItem, 'name' | 'result'>,
  t: TFunction,
): string | null => {
  const { result } = item;
  // A PIN change says nothing more than its name: whatever the phone answers stays off screen.
  if (!result || SILENT_COMMANDS.includes(item.name)) return null;
  if (typeof result.latitude === 'string' && typeof result.longitude === 'string') {
    return t('commandHistory.location', { latitude: result.latitude, longitude: result.longitude });
  }
  if (Array.isArray(result.sims)) return t('commandHistory.sims', { count: result.sims.length });
  const simple = Object.entries(result).filter(([, value]) => isScalar(value));
  return simple.length > 0 ? simple.map(([key, value]) => `${key}: ${String(value)}`).join(', ') : null;
};

/**
 * Why a restricting command was sent (issue 25), in words: its reason category's label and the
 * note written with it ("Customer request — asked to lock while travelling"), either alone, or null
 * when it has neither (a command that restricts nothing, or an older row without a category).
 */
export const describeReason = (
  item: Pick<TCommandHistoryItem, 'reasonCategory' | 'reason'>,
  t: TFunction,
): string | null => {
  const category = item.reasonCategory ? t(`lockReason.categories.${item.reasonCategory}`) : null;
  const note = item.reason?.trim() || null;
  if (category && note) return t('commandHistory.reasonWithNote', { category, note });
  return category ?? note;
};

/** A show_message row's text (and title), so the history says what the customer was told. */
const MessageText = ({ item }: { item: TCommandHistoryItem }) => {
  const { t } = useTranslation();
  const { title, text } = item.args;
  if (item.name !== 'show_message' || typeof text !== 'string') return null;
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid={`command-message-${item.id}`}>
      {typeof title === 'string' && title
        ? t('customerMessage.historyTitled', { title, text })
        : t('customerMessage.history', { text })}
    </Typography>
  );
};

type THistoryRowProps = {
  item: TCommandHistoryItem;
  isCancelling: boolean;
  onCancel: (item: TCommandHistoryItem) => void;
};

const HistoryRow = ({ item, isCancelling, onCancel }: THistoryRowProps) => {
  const { t } = useTranslation();
  const command = t(`commandName.${item.name}`);
  const result = describeResult(item, t);
  const isPending = isPendingCommandState(item.state);
  const isScheduled = isWaitingForRunAt(item);
  const reasonText = describeReason(item, t);
  return (
    <ListItem divider disableGutters data-testid={`command-${item.id}`} sx={{ display: 'block', py: 1.25 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {command}
        </Typography>
        {item.batchId ? <Chip size="small" variant="outlined" label={t('commandHistory.bulk')} /> : null}
        <CommandStateChip state={item.state} isScheduled={isScheduled} testId={`command-state-${item.id}`} />
      </Stack>
      <Typography variant="caption" color="textSecondary" component="p">
        {t('commandHistory.meta', {
          name: item.createdByName ?? t('commandHistory.system'),
          time: formatDateTime(item.createdAt),
        })}
        {item.deliveryAttempts > 1
          ? ` · ${t('commandHistory.attempts', { count: item.deliveryAttempts })}`
          : ''}
      </Typography>
      {item.runAt ? (
        <Typography
          variant={isScheduled ? 'body2' : 'caption'}
          color={isScheduled ? 'textPrimary' : 'textSecondary'}
          component="p"
          sx={isScheduled ? { fontWeight: 500 } : undefined}
          data-testid={`command-run-at-${item.id}`}
        >
          {t(isPending ? 'commandHistory.scheduled' : 'commandHistory.wasScheduled', {
            time: formatDateTime(item.runAt),
          })}
        </Typography>
      ) : null}
      <MessageText item={item} />
      {reasonText ? (
        <Typography
          variant="body2"
          sx={{ overflowWrap: 'anywhere' }}
          data-testid={`command-reason-${item.id}`}
        >
          {t('commandHistory.reason', { reason: reasonText })}
        </Typography>
      ) : null}
      {item.error ? (
        <Typography variant="body2" color="error" data-testid={`command-error-${item.id}`}>
          {t('commandHistory.error', { error: item.error })}
        </Typography>
      ) : null}
      {result ? (
        <Typography variant="body2" data-testid={`command-result-${item.id}`}>
          {t('commandHistory.result', { result })}
        </Typography>
      ) : null}
      {isPending ? (
        <Button
          size="small"
          color="warning"
          onClick={() => onCancel(item)}
          loading={isCancelling}
          aria-label={t('commandHistory.cancelNamed', { command })}
          data-testid={`cancel-command-${item.id}`}
          sx={{ mt: 0.5, px: 0 }}
        >
          {t('commandHistory.cancel')}
        </Button>
      ) : null}
    </ListItem>
  );
};

type TCommandHistoryCardProps = {
  customerId: number;
  items: TCommandHistoryItem[] | undefined;
  isLoading: boolean;
  errorMessage?: string | undefined;
  onRetry: () => void;
};

/**
 * The commands sent to the customer's phone, newest first: what, who and when (+05:30), its
 * state, and its error or result. A command still on its way can be cancelled.
 */
export const CommandHistoryCard = ({
  customerId,
  items,
  isLoading,
  errorMessage,
  onRetry,
}: TCommandHistoryCardProps) => {
  const { t } = useTranslation();
  const [cancelCommand, cancelState] = useCancelCommandMutation();
  const [isShowingAll, setIsShowingAll] = useState(false);
  const cancellingId = cancelState.isLoading ? cancelState.originalArgs?.command_id : undefined;

  const handleCancel = async (item: TCommandHistoryItem) => {
    const result = await cancelCommand({ customer_id: customerId, command_id: item.id });
    if (result.data) enqueueSnackbar(t('commandHistory.cancelled'), { variant: 'info' });
  };

  const renderBody = () => {
    if (isLoading) return <Skeleton variant="rounded" height={80} />;
    if (!items)
      return <LoadError message={errorMessage ?? t('commandHistory.loadFailed')} onRetry={onRetry} />;
    if (items.length === 0) {
      return (
        <Typography variant="body2" color="textSecondary">
          {t('commandHistory.empty')}
        </Typography>
      );
    }
    const shown = isShowingAll ? items : items.slice(0, HISTORY_VISIBLE_ROWS);
    return (
      <>
        <List disablePadding>
          {shown.map((item) => (
            <HistoryRow
              key={item.id}
              item={item}
              isCancelling={cancellingId === item.id}
              onCancel={(row) => void handleCancel(row)}
            />
          ))}
        </List>
        {shown.length < items.length ? (
          <Button
            fullWidth
            onClick={() => setIsShowingAll(true)}
            sx={{ mt: 1 }}
            data-testid="command-history-all"
          >
            {t('commandHistory.showAll', { count: items.length })}
          </Button>
        ) : null}
      </>
    );
  };

  return (
    <SectionCard title={t('commandHistory.title')} testId="command-history">
      {renderBody()}
    </SectionCard>
  );
};
