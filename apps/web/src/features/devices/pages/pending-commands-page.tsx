import CloudOffIcon from '@mui/icons-material/CloudOff';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { formatDateTime } from '../../../lib/format';
import type { TPendingCommandsTab } from '../../../lib/paths';
import { appPaths, PENDING_COMMANDS_TAB_PARAM, PENDING_COMMANDS_TABS } from '../../../lib/paths';
import { CommandStateChip } from '../components/command-state-chip';
import type { TPendingCommand } from '../device-api';
import { useCancelCommandMutation, useGetPendingCommandsQuery } from '../device-api';
import { isWaitingForRunAt } from '../device-controls';

/** How often the open list is read again while the screen is visible, ms. */
export const PENDING_COMMANDS_POLL_MS = 10_000;

/** The tab of a `tab` query value; unknown or missing values give the first tab. */
export const readPendingCommandsTab = (value: string | null): TPendingCommandsTab =>
  PENDING_COMMANDS_TABS.find((tab) => tab === value) ?? 'offline';

const tabId = (tab: TPendingCommandsTab) => `pending-tab-${tab}`;
const PANEL_ID = 'pending-commands-panel';

type TPendingCommandRowProps = {
  command: TPendingCommand;
  isCancelling: boolean;
  onCancel: (command: TPendingCommand) => void;
};

/** One waiting command: what, whose phone (a link to customer_details), who asked and when, its state. */
const PendingCommandRow = ({ command, isCancelling, onCancel }: TPendingCommandRowProps) => {
  const { t } = useTranslation();
  const label = t(`commandName.${command.name}`);
  return (
    <ListItem divider data-testid={`pending-command-${command.id}`} sx={{ display: 'block', py: 1.5 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography
          variant="subtitle1"
          sx={{ flex: 1, minWidth: 0, fontWeight: 600 }}
          noWrap
          data-testid="pending-command-name"
        >
          {label}
        </Typography>
        <CommandStateChip
          state={command.state}
          isScheduled={isWaitingForRunAt(command)}
          testId="pending-command-state"
        />
      </Stack>
      <Link
        component={RouterLink}
        to={appPaths.customerDetails.href(command.customerId, 'actions')}
        variant="body1"
        data-testid="pending-command-customer"
      >
        {command.customerName}
      </Link>
      {command.runAt ? (
        <Typography variant="body2" sx={{ fontWeight: 500 }} data-testid="pending-command-run-at">
          {t('commandHistory.scheduled', { time: formatDateTime(command.runAt) })}
        </Typography>
      ) : null}
      <Typography variant="caption" color="textSecondary" component="p" data-testid="pending-command-created">
        {t('pendingCommands.created', {
          name: command.createdByName ?? t('commandHistory.system'),
          time: formatDateTime(command.createdAt),
        })}
        {` · ${t('commandHistory.attempts', { count: command.deliveryAttempts })}`}
      </Typography>
      {command.error ? (
        <Typography variant="body2" color="error" data-testid="pending-command-error">
          {t('commandHistory.error', { error: command.error })}
        </Typography>
      ) : null}
      <Button
        size="small"
        color="warning"
        onClick={() => onCancel(command)}
        loading={isCancelling}
        aria-label={t('commandHistory.cancelNamed', { command: label })}
        data-testid="pending-command-cancel"
        sx={{ mt: 0.5, px: 0 }}
      >
        {t('commandHistory.cancel')}
      </Button>
    </ListItem>
  );
};

/**
 * One tab's list, read every PENDING_COMMANDS_POLL_MS while the screen is visible (polling pauses
 * while the app is in the background), with Cancel behind a confirmation.
 */
const PendingCommandList = ({ list }: { list: TPendingCommandsTab }) => {
  const { t } = useTranslation();
  const query = useGetPendingCommandsQuery(list, {
    pollingInterval: PENDING_COMMANDS_POLL_MS,
    skipPollingIfUnfocused: true,
    refetchOnMountOrArgChange: true,
  });
  const [cancelCommand, cancelState] = useCancelCommandMutation();
  const [confirming, setConfirming] = useState<TPendingCommand | null>(null);
  const cancellingId = cancelState.isLoading ? cancelState.originalArgs?.command_id : undefined;

  const cancel = async () => {
    if (!confirming) return;
    const result = await cancelCommand({ customer_id: confirming.customerId, command_id: confirming.id });
    setConfirming(null);
    if (result.data) enqueueSnackbar(t('commandHistory.cancelled'), { variant: 'info' });
  };

  if (query.isLoading) return <PageSkeleton />;
  if (!query.data) return <LoadError message={query.error?.message} onRetry={query.refetch} />;
  if (query.data.length === 0) {
    const Icon = list === 'offline' ? CloudOffIcon : EventAvailableIcon;
    return (
      <Card>
        <CardContent sx={{ textAlign: 'center', py: 5 }}>
          <Icon color="disabled" sx={{ fontSize: 48, mb: 1 }} />
          <Typography color="textSecondary" data-testid="pending-commands-empty">
            {t(`pendingCommands.empty.${list}`)}
          </Typography>
        </CardContent>
      </Card>
    );
  }
  return (
    <>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }} data-testid="pending-commands-intro">
        {t(`pendingCommands.intro.${list}`, { count: query.data.length })}
      </Typography>
      <Card>
        <List disablePadding data-testid="pending-commands-list">
          {query.data.map((command) => (
            <PendingCommandRow
              key={command.id}
              command={command}
              isCancelling={cancellingId === command.id}
              onCancel={setConfirming}
            />
          ))}
        </List>
      </Card>
      <ConfirmDialog
        isOpen={confirming !== null}
        title={t('pendingCommands.confirmTitle')}
        body={
          confirming
            ? t('pendingCommands.confirmBody', {
                command: t(`commandName.${confirming.name}`),
                customer: confirming.customerName,
              })
            : ''
        }
        confirmLabel={t('pendingCommands.confirmCancel')}
        cancelLabel={t('pendingCommands.keep')}
        confirmColor="error"
        confirmTestId="pending-command-cancel-confirm"
        isBusy={cancelState.isLoading}
        onConfirm={() => void cancel()}
        onClose={() => setConfirming(null)}
      />
    </>
  );
};

/**
 * pending_commands: the organisation's commands still waiting, in two tabs (kept in the URL,
 * `?tab=`): those waiting for phones that are offline (offline_command_log, oldest first) and those
 * waiting for their scheduled time (scheduled_commands, soonest first). Each names its customer
 * (opening customer_details), the command, who sent it and when, when it runs, its state and
 * delivery attempts, and can be cancelled after a confirmation.
 */
export const PendingCommandsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const tab = readPendingCommandsTab(searchParams.get(PENDING_COMMANDS_TAB_PARAM));
  return (
    <>
      <PageHeader title={t('pages.pending_commands')} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, next: TPendingCommandsTab) =>
            navigate(appPaths.pendingCommands.href(next), { replace: true })
          }
          variant="fullWidth"
          aria-label={t('pendingCommands.tabsLabel')}
        >
          {PENDING_COMMANDS_TABS.map((value) => (
            <Tab
              key={value}
              value={value}
              id={tabId(value)}
              aria-controls={PANEL_ID}
              data-testid={tabId(value)}
              label={t(`pendingCommands.tabs.${value}`)}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(tab)}>
        <PendingCommandList key={tab} list={tab} />
      </Box>
    </>
  );
};
