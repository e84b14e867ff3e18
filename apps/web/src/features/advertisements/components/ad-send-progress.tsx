import { COMMAND_STATES, type TCommandState } from '@kisht/domain/common/enums';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
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
import { advertisementsApi, useGetAdvertisementSendQuery } from '../advertisements-api';

/** Poll a running send this often, ms (as multiple_lock_unlock does). */
export const AD_SEND_POLL_MS = 1500;

/** States in which a command has ended. */
const ENDED: readonly TCommandState[] = ['done', 'failed', 'cancelled', 'expired'];
const ALWAYS_SHOWN: readonly TCommandState[] = ['queued', 'sent', 'received', 'done', 'failed'];
const COLOURS: Partial<Record<TCommandState, string>> = { done: 'success.main', failed: 'error.main' };

/** How many commands of a send have ended. */
export const endedCount = (counts: Partial<Record<TCommandState, number>>): number =>
  ENDED.reduce((sum, state) => sum + (counts[state] ?? 0), 0);

/**
 * The delivery progress of one advertisement send: a bar (phones done over all), the count in
 * each command state and the customers skipped with why; polled every 1.5 s until every command
 * has ended.
 */
export const AdSendProgress = ({ sendId, onDone }: { sendId: string; onDone: () => void }) => {
  const { t } = useTranslation();
  const cached = advertisementsApi.endpoints.getAdvertisementSend.useQueryState(sendId);
  const isSettled = cached.data ? endedCount(cached.data.counts) >= cached.data.total : false;
  const query = useGetAdvertisementSendQuery(sendId, {
    pollingInterval: isSettled ? 0 : AD_SEND_POLL_MS,
    skipPollingIfUnfocused: false,
  });
  if (query.isLoading) return <PageSkeleton />;
  if (!query.data) return <LoadError message={query.error?.message} onRetry={query.refetch} />;
  const progress = query.data;
  const ended = endedCount(progress.counts);
  const percent = progress.total === 0 ? 100 : Math.round((ended / progress.total) * 100);
  const shown = COMMAND_STATES.filter((s) => ALWAYS_SHOWN.includes(s) || (progress.counts[s] ?? 0) > 0);
  return (
    <Stack spacing={2} data-testid="ad-send-progress">
      <Card>
        <CardContent>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="ad-send-progress-label">
            {t('advertisements.progress.label', { ended, total: progress.total })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={percent}
            sx={{ my: 1.5, height: 8, borderRadius: 4 }}
          />
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }}>
            {shown.map((state) => (
              <Card key={state} variant="outlined">
                <CardContent sx={{ p: 1.25, '&:last-child': { pb: 1.25 }, textAlign: 'center' }}>
                  <Typography
                    variant="h6"
                    component="p"
                    sx={{ fontWeight: 700, color: COLOURS[state] }}
                    data-testid={`ad-count-${state}`}
                  >
                    {progress.counts[state] ?? 0}
                  </Typography>
                  <Typography variant="caption" color="textSecondary">
                    {t(`commandState.${state}`)}
                  </Typography>
                </CardContent>
              </Card>
            ))}
          </Box>
        </CardContent>
      </Card>
      {progress.skipped.length > 0 ? (
        <SectionCard title={t('advertisements.progress.skipped', { count: progress.skipped.length })}>
          <List dense disablePadding>
            {progress.skipped.map((entry) => (
              <ListItem key={entry.customerId} disableGutters divider>
                <ListItemText
                  primary={t('advertisements.progress.skippedRow', { id: entry.customerId })}
                  secondary={entry.reason}
                />
              </ListItem>
            ))}
          </List>
        </SectionCard>
      ) : null}
      <Button variant="outlined" onClick={onDone} data-testid="ad-send-done">
        {t('advertisements.progress.back')}
      </Button>
    </Stack>
  );
};
