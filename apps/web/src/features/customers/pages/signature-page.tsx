import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useOrgConfig } from '../../../lib/http/org-config-api';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../lib/paths';
import { useGoBack } from '../../../lib/use-go-back';
import { MediaThumbnail } from '../components/media-preview';
import { SignaturePadCard } from '../components/signature-pad-card';
import type { TSignatureKind } from '../customers-api';
import {
  useGetCustomerDetailsQuery,
  useGetCustomerMediaQuery,
  useUploadSignatureMutation,
} from '../customers-api';

const PAGES = {
  customer_signature: {
    titleKey: 'pages.signature',
    instructionsKey: 'signaturePad.instructions',
    savedKey: 'signaturePad.saved',
    fileName: 'signature.png',
  },
  witness_signature: {
    titleKey: 'pages.witness_signature',
    instructionsKey: 'signaturePad.witnessInstructions',
    savedKey: 'signaturePad.witnessSaved',
    fileName: 'witness-signature.png',
  },
} as const;

/** The signature stored now, small, so the person sees what Save replaces. */
const CurrentSignature = ({ customerId, kind }: { customerId: number; kind: TSignatureKind }) => {
  const { t } = useTranslation();
  const media = useGetCustomerMediaQuery(customerId);
  const current = kind === 'witness_signature' ? media.data?.witnessSignature : media.data?.signature;
  if (!current) return null;
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="current-signature">
      <MediaThumbnail media={current} alt={t('signaturePad.current')} width={120} height={60} />
      <Typography variant="body2" color="textSecondary">
        {t('signaturePad.replaceHint')}
      </Typography>
    </Stack>
  );
};

const SignatureForm = ({
  customerId,
  kind,
  onSaved,
}: {
  customerId: number;
  kind: TSignatureKind;
  onSaved: () => void;
}) => {
  const { t } = useTranslation();
  const page = PAGES[kind];
  const [uploadSignature, { isLoading }] = useUploadSignatureMutation();

  const handleSave = async (file: File | null) => {
    if (!file) {
      enqueueSnackbar(t('signaturePad.exportFailed'), { variant: 'error' });
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      enqueueSnackbar(t('upload.errors.tooLarge'), { variant: 'error' });
      return;
    }
    const result = await uploadSignature({ customerId, kind, file });
    if (result.error) return;
    enqueueSnackbar(t(page.savedKey), { variant: 'success' });
    onSaved();
  };

  return (
    <Stack spacing={2}>
      <CurrentSignature customerId={customerId} kind={kind} />
      <SignaturePadCard
        instructions={t(page.instructionsKey)}
        fileName={page.fileName}
        isSaving={isLoading}
        onSave={(file) => void handleSave(file)}
      />
    </Stack>
  );
};

/** The customer's name under the title, once their details are at hand. */
const CustomerName = ({ customerId }: { customerId: number }) => {
  const details = useGetCustomerDetailsQuery(customerId);
  return details.data ? <span>{`${details.data.firstName} ${details.data.lastName}`}</span> : null;
};

/**
 * Spec §2 signature and witness_signature (?customer_id=): the customer or a witness signs on a
 * pad; Save uploads the PNG (paths.customers.signature) and goes back. A witness signature is only
 * taken when the organisation's witness layout flag is on (spec §1).
 */
export const SignaturePage = ({ kind }: { kind: TSignatureKind }) => {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const customerId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM));
  const orgConfig = useOrgConfig();
  const goBack = useGoBack(
    customerId ? appPaths.customerDocuments.href(customerId) : appPaths.customerList.href(),
  );
  const isWitnessOff = kind === 'witness_signature' && !orgConfig?.features.witnessLayout;

  const renderBody = () => {
    if (!customerId) return <LoadError message={t('errors.customerNotFound')} />;
    if (isWitnessOff) {
      return (
        <Alert severity="info" data-testid="witness-off">
          {t('signaturePad.witnessOff')}
        </Alert>
      );
    }
    return <SignatureForm customerId={customerId} kind={kind} onSaved={goBack} />;
  };

  return (
    <>
      <PageHeader
        title={t(PAGES[kind].titleKey)}
        subtitle={customerId && !isWitnessOff ? <CustomerName customerId={customerId} /> : undefined}
        onBack={goBack}
      />
      {renderBody()}
    </>
  );
};
