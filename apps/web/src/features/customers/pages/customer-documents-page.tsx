import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../lib/paths';
import { useGoBack } from '../../../lib/use-go-back';
import { CustomerMediaPanel } from '../components/customer-media-panel';
import { useGetCustomerDetailsQuery } from '../customers-api';

/** The customer's name under the title, once their details are at hand. */
const CustomerName = ({ customerId }: { customerId: number }) => {
  const details = useGetCustomerDetailsQuery(customerId);
  return details.data ? (
    <span data-testid="customer-name">{`${details.data.firstName} ${details.data.lastName}`}</span>
  ) : null;
};

/**
 * Spec §2 customer_documents?customer_id=: the customer's photo, invoice attachment, signatures
 * and documents (CustomerMediaPanel).
 */
export const CustomerDocumentsPage = () => {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const customerId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM));
  const goBack = useGoBack(
    customerId ? appPaths.customerDetails.href(customerId) : appPaths.customerList.href(),
  );
  return (
    <>
      <PageHeader
        title={t('pages.customer_documents')}
        subtitle={customerId ? <CustomerName customerId={customerId} /> : undefined}
        onBack={goBack}
      />
      {customerId ? (
        <CustomerMediaPanel customerId={customerId} />
      ) : (
        <LoadError message={t('errors.customerNotFound')} />
      )}
    </>
  );
};
