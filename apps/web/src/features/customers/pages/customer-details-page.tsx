import { CustomerStatus, DeviceType } from '@kisht/domain/common/enums';
import { formatAddress } from '@kisht/domain/customers/customers.rules';
import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SyncIcon from '@mui/icons-material/Sync';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { DetailList } from '../../../components/detail-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SavedReadNotice } from '../../../components/saved-read-notice';
import { SectionCard } from '../../../components/section-card';
import { bpsToPercent, formatDate, formatDateTime, formatMobile, formatRupees } from '../../../lib/format';
import { api } from '../../../lib/http/api';
import { useSavedReadTime } from '../../../lib/http/offline-reads-slice';
import { customerTag } from '../../../lib/http/tags';
import type { TCustomerDetailsTab } from '../../../lib/paths';
import {
  appPaths,
  CUSTOMER_DETAILS_TAB_PARAM,
  CUSTOMER_DETAILS_TABS,
  CUSTOMER_ID_PARAM,
  parseCustomerId,
} from '../../../lib/paths';
import { useGoBack } from '../../../lib/use-go-back';
import { CustomerConsentSection } from '../components/customer-consent-section';
import { CustomerEditActions } from '../components/customer-edit-actions';
import { CustomerSummaryHeader } from '../components/customer-summary-header';
import { EmiScheduleTable } from '../components/emi-schedule-table';
import { FinancerHandoffStatus } from '../components/financer-handoff-status';
import { PushRefusalNotice } from '../components/push-refusal-notice';
import { StatusCard } from '../components/status-card';
import { useGetCustomerDetailsQuery } from '../customers-api';

/** Poll the details this often while a command is on its way to the phone, ms. */
const PENDING_COMMAND_POLL_MS = 1000;
/** Otherwise refresh this often, so last seen and online stay current, ms. */
const IDLE_POLL_MS = 30_000;

const isCustomerDetailsTab = (value: string | null): value is TCustomerDetailsTab =>
  CUSTOMER_DETAILS_TABS.some((tab) => tab === value);
const tabId = (tab: TCustomerDetailsTab) => `command-tab-${tab}`;
const TAB_PANEL_ID = 'customer-details-tab-panel';

/**
 * Where the link-based app was uninstalled (spec §3 client state: uninstall latitude and
 * longitude), when the details carry it: strings, as every location result (spec §3), possibly
 * 'Bypassed' (spec §5). Absent for other families and before an uninstall.
 */
type TUninstallLocation = { latitude: string; longitude: string };

const uninstallLocationOf = (customer: TCustomerDetails): TUninstallLocation | null => {
  const { uninstallLatitude, uninstallLongitude } = customer as TCustomerDetails & {
    uninstallLatitude?: unknown;
    uninstallLongitude?: unknown;
  };
  if (typeof uninstallLatitude !== 'string' || typeof uninstallLongitude !== 'string') return null;
  if (!uninstallLatitude || !uninstallLongitude) return null;
  return { latitude: uninstallLatitude, longitude: uninstallLongitude };
};

/** A location as text, linked to the phone's maps app (a geo: URI, RFC 5870) when it is a coordinate. */
const LocationValue = ({ location }: { location: TUninstallLocation }) => {
  const text = `${location.latitude}, ${location.longitude}`;
  const isCoordinate = [location.latitude, location.longitude].every(
    (value) => value.trim() !== '' && Number.isFinite(Number(value)),
  );
  return isCoordinate ? (
    <Link href={`geo:${location.latitude},${location.longitude}`} data-testid="uninstall-location">
      {text}
    </Link>
  ) : (
    <span data-testid="uninstall-location">{text}</span>
  );
};

/** An Apple customer's ways to their iPhone's MDM screens: apple_details and apple_sync. */
const AppleLinks = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
      <Button
        fullWidth
        variant="outlined"
        startIcon={<PhoneIphoneIcon />}
        onClick={() => navigate(appPaths.appleDetails.href(customerId))}
        data-testid="open-apple-details"
      >
        {t('apple.openDetails')}
      </Button>
      <Button
        fullWidth
        variant="outlined"
        startIcon={<SyncIcon />}
        onClick={() => navigate(appPaths.appleSync.href(customerId))}
        data-testid="open-apple-sync"
      >
        {t('apple.checkStatus')}
      </Button>
    </Stack>
  );
};

/** The customer tab: status and its trail, the customer, the phone, the loan and its EMIs. */
const CustomerTab = ({ customer }: { customer: TCustomerDetails }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { loan } = customer;
  const notAvailable = t('common.notAvailable');
  const openEmiDetails = () => navigate(appPaths.emiDetails.href(customer.id));
  const hasUnpaidEmi = customer.emis.some((emi) => emi.paidPaise < emi.amountPaise);
  const uninstallLocation = uninstallLocationOf(customer);
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
              value: customer.address ? formatAddress(customer.address) : notAvailable,
              testId: 'customer-address',
            },
            { label: t('customerDetails.createdAt'), value: formatDateTime(customer.createdAt) },
          ]}
        />
      </SectionCard>
      <CustomerConsentSection customerId={customer.id} />
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
            ...(uninstallLocation
              ? [
                  {
                    label: t('customerDetails.uninstallLocation'),
                    value: <LocationValue location={uninstallLocation} />,
                  },
                ]
              : []),
          ]}
        />
        {customer.deviceType === DeviceType.APPLE ? <AppleLinks customerId={customer.id} /> : null}
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
            ...(customer.financerHandoffStatus
              ? [{ label: t('financer.hdbReference'), value: <FinancerHandoffStatus customer={customer} /> }]
              : []),
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

/** What the device part's lock card is given. */
export type TLockCardSlotProps = {
  customer: TCustomerDetails;
  /** Opens customer_navigate (the enrolment QR); only while the customer is inactive. */
  onShowEnrolmentQr: (() => void) | undefined;
};

/** What the device part's device and actions tabs are given. */
export type TCommandsTabSlotProps = {
  tab: Exclude<TCustomerDetailsTab, 'customer'>;
  customer: TCustomerDetails;
  /** A command is on its way: what the tab reads polls until it ends. */
  hasPendingCommand: boolean;
};

/**
 * The device part of customer_details, which the devices feature provides and app/ composes in
 * (features do not import each other).
 */
export type TCustomerDetailsPageProps = {
  /**
   * A command is on its way to the customer's phone (the details' pending lock or toggles, or a
   * pending action in the history): the details are polled every second until it ends.
   */
  hasPendingCommand: boolean;
  /** The lock card, under the customer's header. */
  renderLockCard: (props: TLockCardSlotProps) => ReactNode;
  /** The device tab (the toggles of spec §6) and the actions tab, each with the command history. */
  renderCommandsTab: (props: TCommandsTabSlotProps) => ReactNode;
};

type TCustomerDetailsViewProps = TCustomerDetailsPageProps & { customer: TCustomerDetails };

/**
 * The customer's header and lock card (with, under it, why wake-ups to the phone stopped, when
 * Firebase refused its push token: issue 27), then the command tab groups of spec §2 (customer,
 * device, actions). The tab is kept in the URL (`?tab=`), so Back and a reload land on it.
 */
const CustomerDetailsView = ({
  customer,
  hasPendingCommand,
  renderLockCard,
  renderCommandsTab,
}: TCustomerDetailsViewProps) => {
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
      {renderLockCard({
        customer,
        onShowEnrolmentQr:
          customer.status === CustomerStatus.INACTIVE
            ? () => navigate(appPaths.customerNavigate.href(customer.id))
            : undefined,
      })}
      <PushRefusalNotice refusal={customer.device.pushRefusal} />
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
          renderCommandsTab({ tab, customer, hasPendingCommand })
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
 * Cancel) and is read again when one falls due. The lock card and the device and actions tabs
 * come from the devices feature (`renderLockCard`, `renderCommandsTab`; app/customer-details-route).
 * Offline, the details (and the EMI schedule in them) are those last fetched, under a notice
 * saying as of when (issue 28); a command or edit tried then is refused by the base query.
 */
export const CustomerDetailsPage = ({
  hasPendingCommand,
  renderLockCard,
  renderCommandsTab,
}: TCustomerDetailsPageProps) => {
  const { t } = useTranslation();
  const goBack = useGoBack(appPaths.customerList.href());
  const params = useParams();
  const customerId = parseCustomerId(params[CUSTOMER_ID_PARAM]) ?? 0;
  // Poll every second while any command is on its way, until the phone reports back.
  const details = useGetCustomerDetailsQuery(customerId, {
    skip: !customerId,
    pollingInterval: hasPendingCommand ? PENDING_COMMAND_POLL_MS : IDLE_POLL_MS,
    skipPollingIfUnfocused: !hasPendingCommand,
    refetchOnMountOrArgChange: true,
  });
  // Offline, the details as last fetched (issue 28), and since when.
  const savedAt = useSavedReadTime(details);

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

  const renderBody = () => {
    if (!customerId) return <LoadError message={t('errors.customerNotFound')} />;
    if (details.isLoading) return <PageSkeleton />;
    if (!details.data) return <LoadError message={details.error?.message} onRetry={details.refetch} />;
    return (
      <>
        {savedAt === null ? null : <SavedReadNotice savedAt={savedAt} onRetry={details.refetch} />}
        <CustomerDetailsView
          customer={details.data}
          hasPendingCommand={hasPendingCommand}
          renderLockCard={renderLockCard}
          renderCommandsTab={renderCommandsTab}
        />
      </>
    );
  };

  return (
    <>
      <PageHeader
        title={t('customerDetails.title')}
        onBack={goBack}
        action={details.data ? <CustomerEditActions customer={details.data} /> : undefined}
      />
      {renderBody()}
    </>
  );
};
