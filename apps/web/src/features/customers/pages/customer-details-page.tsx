import { CustomerStatus, statusWord } from '@kisht/domain/common/enums';
import type { TAddress, TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import type { TCommandHistoryItem } from '@kisht/domain/devices/devices.schema';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { enqueueSnackbar } from 'notistack';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { TCustomerDetailsTab } from '../../../app/paths';
import {
  appPaths,
  CUSTOMER_DETAILS_TAB_PARAM,
  CUSTOMER_DETAILS_TABS,
  CUSTOMER_ID_PARAM,
  parseCustomerId,
} from '../../../app/paths';
import { DetailList } from '../../../components/detail-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { bpsToPercent, formatDate, formatDateTime, formatMobile, formatRupees } from '../../../lib/format';
import { api } from '../../../lib/http/api';
import { useGoBack } from '../../../lib/use-go-back';
import { CommandHistoryCard } from '../components/command-history-card';
import { CustomerEditActions } from '../components/customer-edit-actions';
import { CustomerSimChangesCard } from '../components/customer-sim-changes-card';
import { CustomerSummaryHeader } from '../components/customer-summary-header';
import { DeviceActionsCard } from '../components/device-actions-card';
import { DeviceControlCard } from '../components/device-control-card';
import { DeviceTogglesCard } from '../components/device-toggles-card';
import { EmiScheduleTable } from '../components/emi-schedule-table';
import { SectionCard } from '../components/section-card';
import { StatusCard } from '../components/status-card';
import {
  customersApi,
  customerTag,
  useGetCustomerDetailsQuery,
  useListCountriesQuery,
  useListStatesQuery,
} from '../customers-api';
import { deviceApi, useGetCommandHistoryQuery } from '../device-api';
import { hasPendingDeviceCommand, isWaitingForRunAt } from '../device-controls';

/** Poll the details this often while a command is on its way to the phone, ms. */
const PENDING_COMMAND_POLL_MS = 1000;
/** Poll the command history this often while a command is on its way, ms. */
const PENDING_HISTORY_POLL_MS = 2000;
/** Otherwise refresh this often, so last seen and online stay current, ms. */
const IDLE_POLL_MS = 30_000;
/** How long after a scheduled command's run_at the history is read again (the server's job runs), ms. */
const SCHEDULED_DUE_GRACE_MS = 2000;
/** The longest delay setTimeout takes, ms. */
const MAX_TIMER_MS = 2_147_483_647;

const isCustomerDetailsTab = (value: string | null): value is TCustomerDetailsTab =>
  CUSTOMER_DETAILS_TABS.some((tab) => tab === value);
const tabId = (tab: TCustomerDetailsTab) => `command-tab-${tab}`;
const TAB_PANEL_ID = 'customer-details-tab-panel';

/**
 * An address on one line: street, city, state and PIN code, country. The state and country are
 * named from the csc lists (their codes until those have loaded).
 */
const formatAddress = (
  address: TAddress,
  names: { countryName?: string | undefined; stateName?: string | undefined },
): string =>
  [
    address.line1,
    address.city,
    [names.stateName ?? address.stateCode, address.pincode].filter(Boolean).join(' '),
    names.countryName ?? address.countryCode,
  ].join(', ');

/** The customer's address, with the state and country named from the (long-cached) csc lists. */
const AddressText = ({ address }: { address: TAddress }) => {
  const countries = useListCountriesQuery();
  const states = useListStatesQuery({ country: address.countryCode });
  return formatAddress(address, {
    countryName: countries.data?.find((country) => country.code === address.countryCode)?.name,
    stateName: states.data?.find((state) => state.code === address.stateCode)?.name,
  });
};

/** The customer tab: status and its trail, the customer, the phone, the loan and its EMIs. */
const CustomerTab = ({ customer }: { customer: TCustomerDetails }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { loan } = customer;
  const notAvailable = t('common.notAvailable');
  const openEmiDetails = () => navigate(appPaths.emiDetails.href(customer.id));
  const hasUnpaidEmi = customer.emis.some((emi) => emi.paidPaise < emi.amountPaise);
  return (
    <Stack spacing={2}>
      <StatusCard customerId={customer.id} status={customer.status} />
      <SectionCard title={t('customerDetails.customerSection')}>
        <DetailList
          items={[
            { label: t('customerDetails.mobile'), value: formatMobile(customer.mobile) },
            { label: t('customerDetails.email'), value: customer.email || notAvailable },
            {
              label: t('customerDetails.dateOfBirth'),
              value: customer.dateOfBirth ? formatDate(customer.dateOfBirth) : notAvailable,
              testId: 'customer-date-of-birth',
            },
            {
              label: t('customerDetails.address'),
              value: customer.address ? <AddressText address={customer.address} /> : notAvailable,
              testId: 'customer-address',
            },
            { label: t('customerDetails.createdAt'), value: formatDateTime(customer.createdAt) },
          ]}
        />
      </SectionCard>
      <SectionCard title={t('customerDetails.phoneSection')}>
        <DetailList
          items={[
            { label: t('customerDetails.product'), value: customer.productName },
            { label: t('customerDetails.imei1'), value: customer.imei1, testId: 'customer-imei1' },
            { label: t('customerDetails.imei2'), value: customer.imei2, testId: 'customer-imei2' },
            {
              label: t('customerDetails.serialNumber'),
              value: customer.serialNumber || notAvailable,
              testId: 'customer-serial-number',
            },
          ]}
        />
      </SectionCard>
      <SectionCard title={t('customerDetails.loanSection')}>
        <DetailList
          items={[
            { label: t('customerDetails.price'), value: formatRupees(loan.pricePaise) },
            { label: t('customerDetails.downPayment'), value: formatRupees(loan.downPaymentPaise) },
            {
              label: t('customerDetails.processingFee'),
              value: formatRupees(loan.processingFeePaise),
              testId: 'customer-processing-fee',
            },
            { label: t('customerDetails.loanAmount'), value: formatRupees(loan.loanAmountPaise) },
            {
              label: t('customerDetails.interestRate'),
              value: t('customerDetails.interestRateValue', { rate: bpsToPercent(loan.annualRateBps) }),
            },
            {
              label: t('customerDetails.interestMethod'),
              value: t(`interestMethod.${loan.interestMethod}`),
              testId: 'customer-interest-method',
            },
            {
              label: t('customerDetails.emi'),
              value: formatRupees(loan.emiPaise),
              testId: 'customer-emi',
            },
            {
              label: t('customerDetails.tenure'),
              value: t('customerDetails.tenureValue', { count: loan.tenureMonths }),
            },
            {
              label: t('customerDetails.financer'),
              value: customer.financerName || notAvailable,
              testId: 'customer-financer',
            },
          ]}
        />
        <Button
          fullWidth
          variant="outlined"
          startIcon={<ReceiptLongIcon />}
          onClick={openEmiDetails}
          sx={{ mt: 2 }}
          data-testid="open-emi-details"
        >
          {t('customerDetails.openEmiDetails')}
        </Button>
      </SectionCard>
      <SectionCard
        title={t('customerDetails.scheduleSection')}
        testId="customer-schedule-card"
        action={
          customer.emis.length > 0 ? (
            <Button size="small" onClick={openEmiDetails} data-testid="schedule-open-emi-details">
              {hasUnpaidEmi ? t('customerDetails.recordPayment') : t('customerDetails.openEmiDetails')}
            </Button>
          ) : null
        }
      >
        <EmiScheduleTable emis={customer.emis} />
      </SectionCard>
    </Stack>
  );
};

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

/** The device and actions tabs: their controls, then the phone's command history. */
const DeviceCommandsTab = ({ tab, customer, hasPendingCommand }: TDeviceCommandsTabProps) => {
  const history = useGetCommandHistoryQuery(customer.id, {
    pollingInterval: hasPendingCommand ? PENDING_HISTORY_POLL_MS : 0,
    refetchOnMountOrArgChange: true,
  });
  const { refetch } = history;
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
          <DeviceTogglesCard customerId={customer.id} device={customer.device} />
          <CustomerSimChangesCard customerId={customer.id} />
        </>
      ) : (
        <DeviceActionsCard
          customerId={customer.id}
          status={customer.status}
          deviceType={customer.deviceType}
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

type TCustomerDetailsViewProps = { customer: TCustomerDetails; hasPendingCommand: boolean };

/**
 * The customer's header and lock card, then the command tab groups of spec §2 (customer, device,
 * actions). The tab is kept in the URL (`?tab=`), so Back and a reload land on it.
 */
const CustomerDetailsView = ({ customer, hasPendingCommand }: TCustomerDetailsViewProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedTab = searchParams.get(CUSTOMER_DETAILS_TAB_PARAM);
  const tab: TCustomerDetailsTab = isCustomerDetailsTab(requestedTab) ? requestedTab : 'customer';
  const openTab = (next: TCustomerDetailsTab) =>
    setSearchParams(
      (params) => {
        if (next === 'customer') params.delete(CUSTOMER_DETAILS_TAB_PARAM);
        else params.set(CUSTOMER_DETAILS_TAB_PARAM, next);
        return params;
      },
      { replace: true },
    );
  return (
    <Stack spacing={2}>
      <CustomerSummaryHeader customer={customer} />
      <DeviceControlCard
        customerId={customer.id}
        device={customer.device}
        onShowEnrolmentQr={
          customer.status === CustomerStatus.INACTIVE
            ? () => navigate(appPaths.customerNavigate.href(customer.id))
            : undefined
        }
      />
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={tab}
          onChange={(_event, next: TCustomerDetailsTab) => openTab(next)}
          variant="fullWidth"
          aria-label={t('customerDetails.tabs.label')}
        >
          {CUSTOMER_DETAILS_TABS.map((value) => (
            <Tab
              key={value}
              value={value}
              id={tabId(value)}
              aria-controls={TAB_PANEL_ID}
              data-testid={tabId(value)}
              label={t(`customerDetails.tabs.${value}`)}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={TAB_PANEL_ID} aria-labelledby={tabId(tab)}>
        {tab === 'customer' ? (
          <CustomerTab customer={customer} />
        ) : (
          <DeviceCommandsTab tab={tab} customer={customer} hasPendingCommand={hasPendingCommand} />
        )}
      </Box>
    </Stack>
  );
};

/**
 * Spec §2 customer_details/:customer_id: the customer (with their photo), lock and unlock, and the
 * command tab groups: customer (status and its trail, loan and EMIs), device (the toggles of spec
 * §6) and actions (the second action list), each with the phone's command history; and the edit
 * menu (IMEI, EMI terms, signature, documents, enrolment QR, check status). "EMI details" and the
 * schedule's "Record payment" open emi_details. While a command is on its way, the details and
 * the history are polled, so "Locking…" turns into "Locked" without a reload. Lock, unlock and the
 * tabs' commands can be scheduled for later; the history reads them "Scheduled for …" (with
 * Cancel) and is read again when one falls due.
 */
export const CustomerDetailsPage = () => {
  const { t } = useTranslation();
  const goBack = useGoBack(appPaths.customerList.href());
  const params = useParams();
  const customerId = parseCustomerId(params[CUSTOMER_ID_PARAM]) ?? 0;
  // Poll every second while any command is on its way (the summary's pending lock or toggles, or
  // a pending action in the history), until the phone reports back.
  const cached = customersApi.endpoints.getCustomerDetails.useQueryState(customerId, { skip: !customerId });
  const cachedHistory = deviceApi.endpoints.getCommandHistory.useQueryState(customerId, {
    skip: !customerId,
  });
  const hasPendingCommand = cached.data
    ? hasPendingDeviceCommand(cached.data.device, cachedHistory.data)
    : false;
  const details = useGetCustomerDetailsQuery(customerId, {
    skip: !customerId,
    pollingInterval: hasPendingCommand ? PENDING_COMMAND_POLL_MS : IDLE_POLL_MS,
    skipPollingIfUnfocused: !hasPendingCommand,
    refetchOnMountOrArgChange: true,
  });

  // When the last command ends, the details are read once more: the history may have seen it end
  // first, and what it produced (a location, SIMs, the reported toggles) lives in the details.
  const dispatch = useDispatch();
  const wasPendingRef = useRef(hasPendingCommand);
  useEffect(() => {
    if (wasPendingRef.current && !hasPendingCommand && customerId) {
      dispatch(api.util.invalidateTags([customerTag(customerId)]));
    }
    wasPendingRef.current = hasPendingCommand;
  }, [hasPendingCommand, customerId, dispatch]);

  // CHECK_STATUS: the customer and their phone's state afresh, and what they are now.
  const checkStatus = async () => {
    const result = await details.refetch();
    if (!result.data) return;
    enqueueSnackbar(
      t('customerEdit.statusChecked', {
        status: t(`customerStatus.${statusWord(result.data.status)}`),
      }),
      { variant: 'info' },
    );
  };

  const renderBody = () => {
    if (!customerId) return <LoadError message={t('errors.customerNotFound')} />;
    if (details.isLoading) return <PageSkeleton />;
    if (!details.data) return <LoadError message={details.error?.message} onRetry={details.refetch} />;
    return <CustomerDetailsView customer={details.data} hasPendingCommand={hasPendingCommand} />;
  };

  return (
    <>
      <PageHeader
        title={t('customerDetails.title')}
        onBack={goBack}
        action={
          details.data ? (
            <CustomerEditActions customer={details.data} onCheckStatus={() => void checkStatus()} />
          ) : undefined
        }
      />
      {renderBody()}
    </>
  );
};
