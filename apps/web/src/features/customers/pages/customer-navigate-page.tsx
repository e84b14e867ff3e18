import { CustomerStatus } from '@kisht/domain/common/enums';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../app/paths';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useGoBack } from '../../../lib/use-go-back';
import { CustomerSummaryHeader } from '../components/customer-summary-header';
import { EnrolmentQrCard } from '../components/enrolment-qr-card';
import { customersApi, useGetCustomerDetailsQuery, useGetEnrolmentQrQuery } from '../customers-api';

/** How often to check whether the phone has enrolled, ms. */
const ENROLMENT_POLL_MS = 3000;

const STEPS = ['enrolment.step1', 'enrolment.step2', 'enrolment.step3', 'enrolment.step4'] as const;

const EnrolmentInstructions = () => {
  const { t } = useTranslation();
  return (
    <Card>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {t('enrolment.instructionsTitle')}
        </Typography>
        <Stack component="ol" spacing={1} sx={{ m: 0, pl: 2.5 }}>
          {STEPS.map((step) => (
            <Typography key={step} component="li" variant="body2">
              {t(step)}
            </Typography>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
};

const EnrolmentView = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Poll while the customer is inactive, i.e. until the phone enrols (status install).
  const cached = customersApi.endpoints.getCustomerDetails.useQueryState(customerId);
  const isWaiting = !cached.data || cached.data.status === CustomerStatus.INACTIVE;
  const details = useGetCustomerDetailsQuery(customerId, {
    pollingInterval: isWaiting ? ENROLMENT_POLL_MS : 0,
    skipPollingIfUnfocused: false,
    refetchOnMountOrArgChange: true,
  });
  const customer = details.data;
  const isInactive = customer?.status === CustomerStatus.INACTIVE;
  // A QR is only issued (a fresh one-time token each time) while the phone still has to enrol.
  const qr = useGetEnrolmentQrQuery(customerId, { skip: !isInactive });

  if (details.isLoading) return <PageSkeleton />;
  if (!customer) return <LoadError message={details.error?.message} onRetry={details.refetch} />;

  const openDetails = () => navigate(appPaths.customerDetails.href(customerId));

  return (
    <Stack spacing={2}>
      <CustomerSummaryHeader customer={customer} />
      {isInactive ? (
        <>
          <Alert
            severity="info"
            icon={<CircularProgress size={20} aria-hidden="true" />}
            data-testid="enrolment-waiting"
          >
            {t('enrolment.waiting')}
          </Alert>
          {qr.data ? (
            <EnrolmentQrCard
              customerId={customerId}
              customerName={`${customer.firstName} ${customer.lastName}`}
              qr={qr.data}
              isRefreshing={qr.isFetching}
              onRegenerate={qr.refetch}
            />
          ) : qr.isError ? (
            <LoadError message={qr.error?.message} onRetry={qr.refetch} />
          ) : (
            <PageSkeleton />
          )}
          <EnrolmentInstructions />
        </>
      ) : (
        <Card data-testid="enrolment-success">
          <CardContent>
            <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
              <CheckCircleIcon color="success" sx={{ fontSize: 64 }} />
              <Typography variant="h6" component="p">
                {t('enrolment.enrolled')}
              </Typography>
              <Button
                variant="contained"
                size="large"
                fullWidth
                onClick={openDetails}
                data-testid="open-customer-details"
              >
                {t('enrolment.openDetails')}
              </Button>
            </Stack>
          </CardContent>
        </Card>
      )}
    </Stack>
  );
};

/** Spec §2 customer_navigate?customer_id=: the enrolment QR of an inactive customer's phone. */
export const CustomerNavigatePage = () => {
  const { t } = useTranslation();
  const goBack = useGoBack(appPaths.customerList.href());
  const [searchParams] = useSearchParams();
  const customerId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM));
  return (
    <>
      <PageHeader title={t('enrolment.title')} onBack={goBack} />
      {customerId ? (
        <EnrolmentView customerId={customerId} />
      ) : (
        <LoadError message={t('errors.customerNotFound')} />
      )}
    </>
  );
};
