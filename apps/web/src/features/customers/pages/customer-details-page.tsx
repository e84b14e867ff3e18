import { CustomerStatus, statusWord } from '@kisht/domain/common/enums';
import type { TAddress, TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../app/paths';
import { DetailList } from '../../../components/detail-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { bpsToPercent, formatDate, formatDateTime, formatMobile, formatRupees } from '../../../lib/format';
import { useGoBack } from '../../../lib/use-go-back';
import { CustomerEditActions } from '../components/customer-edit-actions';
import { CustomerSummaryHeader } from '../components/customer-summary-header';
import { DeviceControlCard } from '../components/device-control-card';
import { EmiScheduleTable } from '../components/emi-schedule-table';
import { SectionCard } from '../components/section-card';
import { StatusCard } from '../components/status-card';
import {
  customersApi,
  useGetCustomerDetailsQuery,
  useListCountriesQuery,
  useListStatesQuery,
} from '../customers-api';

/** Poll this often while a command is on its way to the phone, ms. */
const PENDING_COMMAND_POLL_MS = 1000;
/** Otherwise refresh this often, so last seen and online stay current, ms. */
const IDLE_POLL_MS = 30_000;

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

const CustomerDetailsView = ({ customer }: { customer: TCustomerDetails }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { loan } = customer;
  const notAvailable = t('common.notAvailable');
  const openEmiDetails = () => navigate(appPaths.emiDetails.href(customer.id));
  const hasUnpaidEmi = customer.emis.some((emi) => emi.paidPaise < emi.amountPaise);
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

/**
 * Spec §2 customer_details/:customer_id: the customer (with their photo), their status and its
 * trail, loan and EMIs, device control, and the edit menu (IMEI, EMI terms, signature, documents,
 * enrolment QR, check status). "EMI details" and the schedule's "Record payment" open emi_details.
 */
export const CustomerDetailsPage = () => {
  const { t } = useTranslation();
  const goBack = useGoBack(appPaths.customerList.href());
  const params = useParams();
  const customerId = parseCustomerId(params[CUSTOMER_ID_PARAM]) ?? 0;
  // Poll every second while a lock or unlock is pending, until the phone reports back.
  const cached = customersApi.endpoints.getCustomerDetails.useQueryState(customerId, { skip: !customerId });
  const hasPendingCommand = Boolean(cached.data?.device.pendingCommand);
  const details = useGetCustomerDetailsQuery(customerId, {
    skip: !customerId,
    pollingInterval: hasPendingCommand ? PENDING_COMMAND_POLL_MS : IDLE_POLL_MS,
    skipPollingIfUnfocused: !hasPendingCommand,
    refetchOnMountOrArgChange: true,
  });

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
    return <CustomerDetailsView customer={details.data} />;
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
