import { CustomerStatus } from '@kisht/domain/common/enums';
import type { TAddress, TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../app/paths';
import { DetailList } from '../../../components/detail-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { bpsToPercent, formatDate, formatDateTime, formatMobile, formatRupees } from '../../../lib/format';
import { useGoBack } from '../../../lib/use-go-back';
import { CustomerSummaryHeader } from '../components/customer-summary-header';
import { DeviceControlCard } from '../components/device-control-card';
import { EmiScheduleTable } from '../components/emi-schedule-table';
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

type TSectionProps = { title: string; children: ReactNode; action?: ReactNode; testId?: string };

const Section = ({ title, children, action, testId }: TSectionProps) => (
  <Card data-testid={testId}>
    <CardContent>
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}
      >
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </CardContent>
  </Card>
);

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
      <Section title={t('customerDetails.customerSection')}>
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
      </Section>
      <Section title={t('customerDetails.phoneSection')}>
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
      </Section>
      <Section title={t('customerDetails.loanSection')}>
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
      </Section>
      <Section
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
      </Section>
    </Stack>
  );
};

/**
 * Spec §2 customer_details/:customer_id: the customer, their loan and EMIs, and device control.
 * "EMI details" and the schedule's "Record payment" open emi_details for the customer.
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

  const renderBody = () => {
    if (!customerId) return <LoadError message={t('errors.customerNotFound')} />;
    if (details.isLoading) return <PageSkeleton />;
    if (!details.data) return <LoadError message={details.error?.message} onRetry={details.refetch} />;
    return <CustomerDetailsView customer={details.data} />;
  };

  return (
    <>
      <PageHeader title={t('customerDetails.title')} onBack={goBack} />
      {renderBody()}
    </>
  );
};
