import { LoadError } from '../../../components/load-error';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useGetEnrolmentQrQuery } from '../device-api';
import { EnrolmentQrCard } from './enrolment-qr-card';

type TEnrolmentQrSectionProps = { customerId: number; customerName: string };

/**
 * customer_navigate's enrolment QR for a phone still to enrol: a fresh one-time token on each
 * read (and on "Regenerate"), a skeleton while it comes, or the error with a retry.
 */
export const EnrolmentQrSection = ({ customerId, customerName }: TEnrolmentQrSectionProps) => {
  const qr = useGetEnrolmentQrQuery(customerId);
  if (qr.data) {
    return (
      <EnrolmentQrCard
        customerId={customerId}
        customerName={customerName}
        qr={qr.data}
        isRefreshing={qr.isFetching}
        onRegenerate={qr.refetch}
      />
    );
  }
  if (qr.isError) return <LoadError message={qr.error?.message} onRetry={qr.refetch} />;
  return <PageSkeleton />;
};
