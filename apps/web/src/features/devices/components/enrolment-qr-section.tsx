import { AppErrorCode } from '@kisht/domain/common/errors';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { PageSkeleton } from '../../../components/page-skeleton';
import { isApiError } from '../../../lib/http/base-query';
import { useGetEnrolmentQrQuery } from '../device-api';
import { EnrolmentInstructions } from './enrolment-instructions';
import { EnrolmentQrCard } from './enrolment-qr-card';

type TEnrolmentQrSectionProps = {
  customerId: number;
  customerName: string;
  /** Shown above the QR while there is one (the page's "waiting for the phone"); never without it. */
  waiting?: ReactNode;
};

/**
 * The enrolment QR of customer_navigate and emm_qr for a phone still to enrol: a fresh one-time
 * token on each read (and on "Regenerate"), of the kind the server answers for the customer's
 * device family (issue 15), followed by that kind's instructions; a skeleton while it comes, or
 * the error with a retry. When the family's MDM (NanoMDM, Android Management API) is not set up on
 * the server (503 MDM_UNAVAILABLE) it says so in the server's words.
 */
export const EnrolmentQrSection = ({ customerId, customerName, waiting }: TEnrolmentQrSectionProps) => {
  const { t } = useTranslation();
  const qr = useGetEnrolmentQrQuery(customerId);
  if (qr.data) {
    return (
      <Stack spacing={2}>
        {waiting}
        <EnrolmentQrCard
          customerId={customerId}
          customerName={customerName}
          qr={qr.data}
          isRefreshing={qr.isFetching}
          onRegenerate={qr.refetch}
        />
        <EnrolmentInstructions kind={qr.data.kind} />
      </Stack>
    );
  }
  if (qr.isError) {
    if (isApiError(qr.error) && qr.error.code === AppErrorCode.MDM_UNAVAILABLE) {
      return (
        <Alert
          severity="warning"
          data-testid="mdm-unavailable"
          action={
            <Button color="inherit" size="small" onClick={qr.refetch}>
              {t('common.retry')}
            </Button>
          }
        >
          <AlertTitle>{t('enrolment.mdmUnavailable')}</AlertTitle>
          {qr.error.message}
        </Alert>
      );
    }
    return <LoadError message={isApiError(qr.error) ? qr.error.message : undefined} onRetry={qr.refetch} />;
  }
  return <PageSkeleton />;
};
