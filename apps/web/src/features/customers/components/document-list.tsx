import type { TMedia } from '@kisht/domain/media/media.schema';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import VisibilityIcon from '@mui/icons-material/Visibility';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../lib/format';
import { useDeleteCustomerDocumentMutation } from '../customers-api';
import { MediaThumbnail } from './media-preview';

type TDocumentListProps = {
  customerId: number;
  documents: TMedia[];
  onView: (media: TMedia, title: string) => void;
};

/**
 * The customer's documents, newest first: type, when (+05:30) and who uploaded it, View, and
 * Delete after a confirmation.
 */
export const DocumentList = ({ customerId, documents, onView }: TDocumentListProps) => {
  const { t } = useTranslation();
  const [toDelete, setToDelete] = useState<TMedia | null>(null);
  const [deleteDocument, { isLoading: isDeleting }] = useDeleteCustomerDocumentMutation();
  const typeLabel = (media: TMedia) => t(`documentType.${media.documentType ?? 'other'}`);

  const handleDelete = async () => {
    if (!toDelete) return;
    const result = await deleteDocument({ customer_id: customerId, media_id: toDelete.id });
    setToDelete(null);
    if (!result.error) enqueueSnackbar(t('customerMedia.documentDeleted'), { variant: 'success' });
  };

  if (documents.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary" data-testid="customer-documents-empty">
        {t('customerMedia.documentsEmpty')}
      </Typography>
    );
  }
  return (
    <>
      <List disablePadding data-testid="customer-documents-list">
        {documents.map((media) => {
          const label = typeLabel(media);
          return (
            <ListItem
              key={media.id}
              disableGutters
              divider
              data-testid={`customer-document-${media.id}`}
              secondaryAction={
                <Stack direction="row" spacing={0.5}>
                  <IconButton
                    onClick={() => onView(media, label)}
                    aria-label={t('customerMedia.viewNamed', { name: label })}
                    data-testid={`customer-document-${media.id}-view`}
                  >
                    <VisibilityIcon />
                  </IconButton>
                  <IconButton
                    edge="end"
                    onClick={() => setToDelete(media)}
                    aria-label={t('customerMedia.deleteNamed', { name: label })}
                    data-testid={`customer-document-${media.id}-delete`}
                  >
                    <DeleteOutlineIcon />
                  </IconButton>
                </Stack>
              }
              sx={{ pr: 12 }}
            >
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
                <MediaThumbnail media={media} alt={label} width={48} height={48} />
                <ListItemText
                  primary={label}
                  secondary={
                    <span data-testid={`customer-document-${media.id}-meta`}>
                      {media.uploadedByName
                        ? t('customerMedia.documentMeta', {
                            date: formatDateTime(media.createdAt),
                            name: media.uploadedByName,
                          })
                        : formatDateTime(media.createdAt)}
                    </span>
                  }
                />
              </Stack>
            </ListItem>
          );
        })}
      </List>
      <ConfirmDialog
        isOpen={toDelete !== null}
        title={t('customerMedia.confirmDeleteTitle')}
        body={
          toDelete
            ? t('customerMedia.confirmDeleteBody', {
                type: typeLabel(toDelete),
                date: formatDateTime(toDelete.createdAt),
              })
            : ''
        }
        confirmLabel={t('customerMedia.delete')}
        confirmColor="error"
        isBusy={isDeleting}
        onConfirm={() => void handleDelete()}
        onClose={() => setToDelete(null)}
      />
    </>
  );
};
