import type { TMedia } from '@kisht/domain/media/media.schema';
import DrawIcon from '@mui/icons-material/Draw';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { appPaths } from '../../../lib/paths';
import { useGetCustomerMediaQuery } from '../customers-api';
import { DocumentList } from './document-list';
import { DocumentUploadForm } from './document-upload-form';
import { ImageUploadCard } from './image-upload-card';
import { MediaViewerDialog } from './media-preview';
import { MediaSlot } from './media-slot';

type TViewing = { media: TMedia; title: string };

/**
 * Everything stored for a customer (customer_documents): photo and invoice (add or replace),
 * the signature and, when the organisation asks for one, the witness signature (each drawn on its
 * own screen), and the documents (upload by type, view, delete). Used by customer_documents and by
 * the last step of add_customer.
 */
export const CustomerMediaPanel = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const media = useGetCustomerMediaQuery(customerId);
  const [viewing, setViewing] = useState<TViewing | null>(null);
  const view = (file: TMedia, title: string) => setViewing({ media: file, title });

  if (media.isLoading) return <PageSkeleton />;
  if (!media.data) return <LoadError message={media.error?.message} onRetry={media.refetch} />;
  const { photo, invoice, signature, witnessSignature, documents, witnessRequired } = media.data;

  const signatureSlot = (kind: 'customer' | 'witness') => {
    const isWitness = kind === 'witness';
    const file = isWitness ? witnessSignature : signature;
    const title = isWitness ? t('customerMedia.witnessSignature') : t('customerMedia.signature');
    const href = isWitness ? appPaths.witnessSignature.href(customerId) : appPaths.signature.href(customerId);
    const testId = isWitness ? 'witness-signature' : 'customer-signature';
    return (
      <SectionCard title={title} testId={`${testId}-card`}>
        <MediaSlot
          media={file}
          label={title}
          onView={(stored) => view(stored, title)}
          testId={testId}
          action={
            <Button
              variant="outlined"
              size="small"
              startIcon={<DrawIcon />}
              onClick={() => navigate(href)}
              data-testid={`${testId}-sign`}
            >
              {file
                ? t(isWitness ? 'customerMedia.redoWitnessSignature' : 'customerMedia.redoSignature')
                : t(isWitness ? 'customerMedia.addWitnessSignature' : 'customerMedia.addSignature')}
            </Button>
          }
        />
      </SectionCard>
    );
  };

  return (
    <Stack spacing={2} data-testid="customer-media-panel">
      <ImageUploadCard customerId={customerId} kind="customer_profile" media={photo} onView={view} />
      <ImageUploadCard
        customerId={customerId}
        kind="customer_invoice_attachment"
        media={invoice}
        onView={view}
      />
      {signatureSlot('customer')}
      {witnessRequired ? signatureSlot('witness') : null}
      <SectionCard title={t('customerMedia.documents')} testId="customer-documents-card">
        <Stack spacing={2}>
          <DocumentUploadForm customerId={customerId} />
          <DocumentList customerId={customerId} documents={documents} onView={view} />
        </Stack>
      </SectionCard>
      <MediaViewerDialog
        media={viewing?.media ?? null}
        title={viewing?.title ?? ''}
        onClose={() => setViewing(null)}
      />
    </Stack>
  );
};
