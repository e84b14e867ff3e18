import type { TMedia } from '@kisht/domain/media/media.schema';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import { enqueueSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { FilePickButton } from '../../../components/file-pick-button';
import { SectionCard } from '../../../components/section-card';
import { uploadAccept } from '../../../lib/upload-file';
import type { TCustomerImageKind } from '../customers-api';
import { useUploadCustomerImageMutation } from '../customers-api';
import { usePrepareUpload } from '../use-prepare-upload';
import { MediaSlot } from './media-slot';

/** What each image slot is called and accepts: the photo is an image, the invoice may be a PDF. */
const IMAGE_SLOTS = {
  customer_profile: {
    titleKey: 'customerMedia.photo',
    addKey: 'customerMedia.addPhoto',
    replaceKey: 'customerMedia.replacePhoto',
    savedKey: 'customerMedia.photoSaved',
    canBePdf: false,
    testId: 'customer-photo',
  },
  customer_invoice_attachment: {
    titleKey: 'customerMedia.invoice',
    addKey: 'customerMedia.addInvoice',
    replaceKey: 'customerMedia.replaceInvoice',
    savedKey: 'customerMedia.invoiceSaved',
    canBePdf: true,
    testId: 'customer-invoice',
  },
} as const;

type TImageUploadCardProps = {
  customerId: number;
  kind: TCustomerImageKind;
  media: TMedia | null;
  onView: (media: TMedia, title: string) => void;
};

/** The customer photo or the invoice attachment: what is stored, and Add / Replace. */
export const ImageUploadCard = ({ customerId, kind, media, onView }: TImageUploadCardProps) => {
  const { t } = useTranslation();
  const slot = IMAGE_SLOTS[kind];
  const { prepare, isPreparing } = usePrepareUpload();
  const [upload, { isLoading: isUploading }] = useUploadCustomerImageMutation();
  const title = t(slot.titleKey);
  const buttonLabel = media ? t(slot.replaceKey) : t(slot.addKey);

  const handleFile = async (picked: File) => {
    const file = await prepare(picked, { canBePdf: slot.canBePdf });
    if (!file) return;
    const result = await upload({ customerId, kind, file });
    // A failure has already been shown by the store's error toast.
    if (!result.error) enqueueSnackbar(t(slot.savedKey), { variant: 'success' });
  };

  return (
    <SectionCard title={title} testId={`${slot.testId}-card`}>
      <MediaSlot
        media={media}
        label={title}
        onView={(file) => onView(file, title)}
        testId={slot.testId}
        action={
          <FilePickButton
            label={buttonLabel}
            accept={uploadAccept({ canBePdf: slot.canBePdf })}
            onFile={(file) => void handleFile(file)}
            isBusy={isPreparing || isUploading}
            variant="outlined"
            size="small"
            startIcon={<AddPhotoAlternateIcon />}
            inputTestId={`${slot.testId}-input`}
          />
        }
      />
    </SectionCard>
  );
};
