import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { TCommandHistoryItem } from '@kisht/domain/devices/devices.schema';
import Stack from '@mui/material/Stack';
import { useCallback, useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { api } from '../../../lib/http/api';
import { customerTag } from '../../../lib/http/tags';
import type { TCustomerDetailsTab } from '../../../lib/paths';
import { useGetCommandHistoryQuery } from '../device-api';
import { commandFactsOf, isWaitingForRunAt } from '../device-controls';
import { CommandHistoryCard } from './command-history-card';
import { CustomerSimChangesCard } from './customer-sim-changes-card';
import { DeviceActionsCard } from './device-actions-card';
import { DeviceTogglesCard } from './device-toggles-card';

/** Poll the command history this often while a command is on its way, ms. */
const PENDING_HISTORY_POLL_MS = 2000;
/** How long after a scheduled command's run_at the history is read again (the server's job runs), ms. */
const SCHEDULED_DUE_GRACE_MS = 2000;
/** The longest delay setTimeout takes, ms. */
const MAX_TIMER_MS = 2_147_483_647;

type TDeviceCommandsTabProps = {
  tab: Exclude<TCustomerDetailsTab, 'customer'>;
  customer: TCustomerDetails;
  /** A command is on its way: the history polls until it ends. */
  hasPendingCommand: boolean;
};

/**
 * Reads the history again when its soonest scheduled command falls due, so "Scheduled" turns into
 * its state on the way without a reload (nothing else polls while only scheduled commands wait).
 */
const useRefetchWhenDue = (history: TCommandHistoryItem[] | undefined, refetch: () => void) => {
  const now = Date.now();
  const soonest = Math.min(
    ...(history ?? [])
      .filter((item) => isWaitingForRunAt(item, now))
      .map((item) => Date.parse(item.runAt ?? '')),
  );
  useEffect(() => {
    const wait = soonest - Date.now() + SCHEDULED_DUE_GRACE_MS;
    // Beyond setTimeout's range (24.8 days) the page is reloaded long before.
    if (!Number.isFinite(wait) || wait > MAX_TIMER_MS) return;
    const timer = setTimeout(refetch, Math.max(0, wait));
    return () => clearTimeout(timer);
  }, [soonest, refetch]);
};

/**
 * The device and actions tabs of customer_details (spec §2): the device tab's toggles (spec §6) and
 * SIM changes, or the actions tab's actions; then the phone's command history, polled while a
 * command is on its way and read again when a scheduled one falls due.
 */
export const DeviceCommandsTab = ({ tab, customer, hasPendingCommand }: TDeviceCommandsTabProps) => {
  const history = useGetCommandHistoryQuery(customer.id, {
    pollingInterval: hasPendingCommand ? PENDING_HISTORY_POLL_MS : 0,
    refetchOnMountOrArgChange: true,
  });
  const { refetch } = history;
  const facts = commandFactsOf(customer);
  const dispatch = useDispatch();
  useRefetchWhenDue(
    history.data,
    useCallback(() => {
      void refetch();
      // The details too: a due lock makes the card say "Locking…".
      dispatch(api.util.invalidateTags([customerTag(customer.id)]));
    }, [refetch, dispatch, customer.id]),
  );
  return (
    <Stack spacing={2}>
      {tab === 'device' ? (
        <>
          <DeviceTogglesCard customerId={customer.id} device={customer.device} facts={facts} />
          <CustomerSimChangesCard customerId={customer.id} />
        </>
      ) : (
        <DeviceActionsCard
          customerId={customer.id}
          facts={facts}
          device={customer.device}
          history={history.data}
        />
      )}
      <CommandHistoryCard
        customerId={customer.id}
        items={history.data}
        isLoading={history.isLoading}
        errorMessage={history.error?.message}
        onRetry={() => void history.refetch()}
      />
    </Stack>
  );
};
