import { CustomerStatus, DeviceType } from '@kisht/domain/common/enums';
import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../lib/paths';
import { useGoBack } from '../../../lib/use-go-back';
import { ConsentRecordedNote } from '../components/consent-details';
import { ConsentForm } from '../components/consent-form';
import { CustomerSummaryHeader } from '../components/customer-summary-header';
import {
  customersApi,
  useGetCustomerConsentQuery,
  useGetCustomerDetailsQuery,
  useSyncManagedAndroidMutation,
} from '../customers-api';

/** How often to check whether the phone has enrolled, ms. */
const ENROLMENT_POLL_MS = 3000;
/** How often a waiting managed-Android enrolment asks Google (amapi_sync), ms. */
const MANAGED_ANDROID_SYNC_MS = 10_000;

/**
 * The enrolment QR needs the customer's consent to remote locking (the server answers
 * CONSENT_REQUIRED without it): while none is recorded, why and the form to record it; once it is,
 * a line saying who recorded it and when, then `children` (the QR).
 */
const ConsentGate = ({ customerId, children }: { customerId: number; children: ReactNode }) => {
  const { t } = useTranslation();
  const consent = useGetCustomerConsentQuery(customerId);
  if (consent.isLoading) return <PageSkeleton />;
  if (consent.data === undefined)
    return <LoadError message={consent.error?.message} onRetry={consent.refetch} />;
  if (consent.data === null) {
    return (
      <>
        <Alert severity="warning" data-testid="consent-required">
          {t('consent.required')}
        </Alert>
        <ConsentForm customerId={customerId} />
      </>
    );
  }
  return (
    <>
      <ConsentRecordedNote consent={consent.data} />
      {children}
    </>
  );
};

/**
 * Which screen shows the enrolment QR: customer_navigate (spec §2: only for an inactive customer;
 * anyone else is sent to customer_details) or emm_qr (the edit menu's EMM_QR_CODE: an enrolled
 * customer is told so, and stays).
 */
export type TEnrolmentScreen = 'customerNavigate' | 'emmQr';

export type TCustomerNavigatePageProps = {
  /**
   * The devices feature's enrolment QR of the customer's phone with its instructions, composed in
   * by app/ (features do not import each other). It shows `waiting` ("Waiting for the phone to
   * enrol…") with the QR, and not when no QR could be made (issue 28: an iPhone whose MDM is not
   * set up was told to wait for nothing).
   */
  renderEnrolmentQr: (customer: TCustomerDetails, waiting: ReactNode) => ReactNode;
  /**
   * The ledger feature's "Return key" for a customer whose phone never enrolled; `onReturned`
   * hides the QR (voided by the refund) until the person asks for a new one (which costs a key).
   */
  renderReturnKey?: (customer: TCustomerDetails, onReturned: () => void) => ReactNode;
  /**
   * The autopay feature's UPI AutoPay card (issue 29), so a mandate can be set up as the customer
   * is added, while the phone enrols or after.
   */
  renderAutopay?: (customer: TCustomerDetails) => ReactNode;
};

/** The enrolled customer on emm_qr: no QR (the server issues none), and the way to their details. */
const AlreadyEnrolled = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card data-testid="already-enrolled">
      <CardContent>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
          <CheckCircleIcon color="success" sx={{ fontSize: 64 }} />
          <Typography variant="h6" component="p">
            {t('enrolment.alreadyEnrolled')}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {t('enrolment.alreadyEnrolledHelp')}
          </Typography>
          <Button
            variant="contained"
            size="large"
            fullWidth
            onClick={() => navigate(appPaths.customerDetails.href(customerId))}
            data-testid="open-customer-details"
          >
            {t('enrolment.openDetails')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
};

const EnrolmentView = ({
  customerId,
  screen,
  renderEnrolmentQr,
  renderReturnKey,
  renderAutopay,
}: TCustomerNavigatePageProps & { customerId: number; screen: TEnrolmentScreen }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Once the key is returned the QR shown is void: no QR (a new one costs a key) until asked for.
  const [isKeyReturned, setIsKeyReturned] = useState(false);
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
  // A managed-Android phone enrols with Google, not with us: ask Google now and then while waiting
  // (the server's own sync runs only every few minutes).
  const [syncManagedAndroid] = useSyncManagedAndroidMutation();
  const isManagedAndroidWaiting = isInactive && customer?.deviceType === DeviceType.MANAGED_ANDROID_API;
  useEffect(() => {
    if (!isManagedAndroidWaiting || isKeyReturned) return;
    void syncManagedAndroid(customerId);
    const timer = window.setInterval(() => void syncManagedAndroid(customerId), MANAGED_ANDROID_SYNC_MS);
    return () => window.clearInterval(timer);
  }, [isManagedAndroidWaiting, isKeyReturned, customerId, syncManagedAndroid]);

  // What the customer was when the page opened: one already past enrolment belongs on
  // customer_details (spec §2); one who enrols while the page is open sees the success card.
  const openedAsStatus = useRef<number | null>(null);
  if (customer && openedAsStatus.current === null) openedAsStatus.current = customer.status;

  if (details.isLoading) return <PageSkeleton />;
  if (!customer) return <LoadError message={details.error?.message} onRetry={details.refetch} />;
  if (openedAsStatus.current !== CustomerStatus.INACTIVE) {
    if (screen === 'emmQr') {
      return (
        <Stack spacing={2}>
          <CustomerSummaryHeader customer={customer} />
          <AlreadyEnrolled customerId={customerId} />
        </Stack>
      );
    }
    return <Navigate to={appPaths.customerDetails.href(customerId)} replace />;
  }

  const openDetails = () => navigate(appPaths.customerDetails.href(customerId));

  return (
    <Stack spacing={2}>
      <CustomerSummaryHeader customer={customer} />
      {isInactive ? (
        <ConsentGate customerId={customerId}>
          {/* Only while the phone still has to enrol: each QR is a fresh one-time token. */}
          {isKeyReturned ? (
            <Alert
              severity="info"
              data-testid="key-returned"
              action={
                <Button color="inherit" size="small" onClick={() => setIsKeyReturned(false)}>
                  {t('ledger.refund.newQr')}
                </Button>
              }
            >
              {t('ledger.refund.returned')}
            </Alert>
          ) : (
            renderEnrolmentQr(
              customer,
              <Alert
                severity="info"
                icon={<CircularProgress size={20} aria-hidden="true" />}
                data-testid="enrolment-waiting"
              >
                {t('enrolment.waiting')}
              </Alert>,
            )
          )}
          {!isKeyReturned &&
            customer.device.enrolledAt === null &&
            renderReturnKey?.(customer, () => setIsKeyReturned(true))}
        </ConsentGate>
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
      {renderAutopay?.(customer)}
    </Stack>
  );
};

/**
 * Spec §2 customer_navigate?customer_id= and emm_qr?customer_id=: for an inactive customer, their
 * consent to remote locking (recorded here when missing), then the enrolment QR of their phone with
 * the instructions of its family (`renderEnrolmentQr`), polling until the phone enrols, then a way
 * on to customer_details; under it, UPI AutoPay to set up (`renderAutopay`). A customer who is no longer inactive when the page opens is sent to
 * customer_details from customer_navigate (spec §2: only an inactive customer goes there),
 * replacing the entry; emm_qr says the phone is already enrolled instead.
 */
export const CustomerNavigatePage = ({
  renderEnrolmentQr,
  renderReturnKey,
  renderAutopay,
  screen = 'customerNavigate',
}: TCustomerNavigatePageProps & { screen?: TEnrolmentScreen }) => {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const customerId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM));
  // emm_qr is opened from a customer's edit menu: without history, Back goes to that customer.
  const goBack = useGoBack(
    screen === 'emmQr' && customerId
      ? appPaths.customerDetails.href(customerId)
      : appPaths.customerList.href(),
  );
  return (
    <>
      <PageHeader title={screen === 'emmQr' ? t('pages.emm_qr') : t('enrolment.title')} onBack={goBack} />
      {customerId ? (
        <EnrolmentView
          customerId={customerId}
          screen={screen}
          renderEnrolmentQr={renderEnrolmentQr}
          renderReturnKey={renderReturnKey}
          renderAutopay={renderAutopay}
        />
      ) : (
        <LoadError message={t('errors.customerNotFound')} />
      )}
    </>
  );
};
