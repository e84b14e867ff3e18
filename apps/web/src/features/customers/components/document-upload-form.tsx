import type { TDocumentType } from '@kisht/domain/media/media.schema';
import { DOCUMENT_TYPES } from '@kisht/domain/media/media.schema';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilePickButton } from '../../../components/file-pick-button';
import { uploadAccept } from '../../../lib/upload-file';
import { useUploadCustomerDocumentMutation } from '../customers-api';
import { usePrepareUpload } from '../use-prepare-upload';

const isDocumentType = (value: string): value is TDocumentType =>
  DOCUMENT_TYPES.some((type) => type === value);

/**
 * Upload one document: choose its type (document_type), then pick an image (compressed) or a PDF
 * (sent as it is). The file button waits for the type.
 */
export const DocumentUploadForm = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const [documentType, setDocumentType] = useState<TDocumentType | ''>('');
  const { prepare, isPreparing } = usePrepareUpload();
  const [upload, { isLoading: isUploading }] = useUploadCustomerDocumentMutation();
  const options = { canBePdf: true };

  const handleFile = async (picked: File) => {
    if (!documentType) return;
    const file = await prepare(picked, options);
    if (!file) return;
    const result = await upload({ customerId, documentType, file });
    if (result.error) return;
    enqueueSnackbar(t('customerMedia.documentUploaded'), { variant: 'success' });
    setDocumentType('');
  };

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
      <TextField
        select
        id="customer-document-type"
        label={t('customerMedia.documentType')}
        value={documentType}
        onChange={(event) => setDocumentType(isDocumentType(event.target.value) ? event.target.value : '')}
        helperText={documentType ? ' ' : t('customerMedia.chooseTypeFirst')}
        size="small"
        sx={{ minWidth: 220, flex: 1 }}
        data-testid="customer-document-type"
      >
        {DOCUMENT_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`documentType.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <FilePickButton
        label={t('customerMedia.uploadDocument')}
        accept={uploadAccept(options)}
        onFile={(file) => void handleFile(file)}
        disabled={!documentType}
        isBusy={isPreparing || isUploading}
        variant="contained"
        startIcon={<UploadFileIcon />}
        inputTestId="customer-document-input"
      />
    </Stack>
  );
};
