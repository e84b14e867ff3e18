import type { TCommandState } from '@kisht/domain/common/enums';
import { COMMAND_STATES } from '@kisht/domain/common/enums';
import type { TBulkProgress } from '@kisht/domain/devices/devices.schema';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { deviceApi, useGetBulkProgressQuery } from '../device-api';
import { batchPercent, isBatchSettled, settledCount } from '../device-controls';
import { BulkItemsList } from './bulk-items-list';

/** Poll a running batch this often, ms (the brief: every 1–2 s). */
export const BULK_PROGRESS_POLL_MS = 1500;

/** Counts always shown; cancelled and expired only when some are. */
const ALWAYS_SHOWN_STATES: readonly TCommandState[] = ['queued', 'sent', 'received', 'done', 'failed'];
const STATE_COLOURS: Partial<Record<TCommandState, string>> = {
  done: 'success.main',
  failed: 'error.main',
  expired: 'warning.main',
};

const Counts = ({ progress }: { progress: TBulkProgress }) => {
  const { t } = useTranslation();
  const shown = COMMAND_STATES.filter(
    (state) => ALWAYS_SHOWN_STATES.includes(state) || (progress.counts[state] ?? 0) > 0,
  );
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }}>
      {shown.map((state) => (
        <Card key={state} variant="outlined">
          <CardContent sx={{ p: 1.25, '&:last-child': { pb: 1.25 }, textAlign: 'center' }}>
            <Typography
              variant="h6"
              component="p"
              sx={{ fontWeight: 700, color: STATE_COLOURS[state] }}
              data-testid={`bulk-count-${state}`}
            >
              {progress.counts[state] ?? 0}
            </Typography>
            <Typography variant="caption" color="textSecondary" sx={{ textTransform: 'capitalize' }}>
              {t(`commandState.${state}`)}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
};

const Skipped = ({ skipped }: { skipped: TBulkProgress['skipped'] }) => {
  const { t } = useTranslation();
  if (skipped.length === 0) return null;
  return (
    <SectionCard title={t('bulkLock.skippedTitle', { count: skipped.length })} testId="bulk-skipped">
      <List dense disablePadding>
        {skipped.map((entry) => (
          <ListItem
            key={entry.customerId}
            disableGutters
            divider
            data-testid={`bulk-skipped-${entry.customerId}`}
          >
            <ListItemText
              primary={t('bulkLock.skippedRow', { id: entry.customerId })}
              secondary={entry.reason}
            />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
};

type TBulkProgressViewProps = { batchId: string; onStartAgain: () => void };

/**
 * The progress of one bulk lock or unlock: a bar (commands ended over all), the count in each
 * state, the customers skipped and why, and each phone's state. Polled every 1.5 s until every
 * command has ended.
 */
export const BulkProgressView = ({ batchId, onStartAgain }: TBulkProgressViewProps) => {
  const { t } = useTranslation();
  const cached = deviceApi.endpoints.getBulkProgress.useQueryState(batchId);
  const isSettled = cached.data ? isBatchSettled(cached.data) : false;
  const query = useGetBulkProgressQuery(batchId, {
    pollingInterval: isSettled ? 0 : BULK_PROGRESS_POLL_MS,
    skipPollingIfUnfocused: false,
  });

  if (query.isLoading) return <PageSkeleton />;
  if (!query.data) {
    return (
      <LoadError message={query.error?.message ?? t('bulkLock.progressFailed')} onRetry={query.refetch} />
    );
  }
  const progress = query.data;
  const percent = batchPercent(progress);
  const label = t('bulkLock.progressLabel', { settled: settledCount(progress), total: progress.total });
  return (
    <Stack spacing={2} data-testid="bulk-progress-view">
      <Card>
        <CardContent>
          <Stack spacing={1.5}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
                {t(`bulkLock.progressTitle.${progress.action}`)}
              </Typography>
              {isBatchSettled(progress) ? (
                <Chip
                  size="small"
                  color="success"
                  label={t('bulkLock.complete')}
                  data-testid="bulk-complete"
                />
              ) : null}
            </Stack>
            <LinearProgress
              variant="determinate"
              value={percent}
              aria-label={label}
              data-testid="bulk-progress"
              sx={{ height: 8, borderRadius: 4 }}
            />
            <Typography
              variant="body2"
              color="textSecondary"
              data-testid="bulk-progress-label"
              aria-live="polite"
            >
              {label}
            </Typography>
            <Counts progress={progress} />
            <Box>
              <Button variant="outlined" onClick={onStartAgain} data-testid="bulk-start-again">
                {t('bulkLock.startAgain')}
              </Button>
            </Box>
          </Stack>
        </CardContent>
      </Card>
      <Skipped skipped={progress.skipped} />
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t('bulkLock.itemsTitle')}
      </Typography>
      {progress.items.length === 0 ? (
        <Typography variant="body2" color="textSecondary" data-testid="bulk-items-empty">
          {t('bulkLock.itemsEmpty')}
        </Typography>
      ) : (
        <BulkItemsList items={progress.items} />
      )}
    </Stack>
  );
};
