import type { TMedia } from '@kisht/domain/media/media.schema';
import BrokenImageIcon from '@mui/icons-material/BrokenImage';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { useMediaUrl } from '../../../lib/http/use-media-url';
import { PDF_MIME_TYPE } from '../../../lib/upload-file';

const isPdfMedia = (media: Pick<TMedia, 'mimeType'>): boolean => media.mimeType === PDF_MIME_TYPE;

/** The file name a stored file is saved under: the last part of its image_name. */
const fileNameOf = (media: Pick<TMedia, 'imageName'>): string => media.imageName.split('/').pop() ?? 'file';

type TMediaThumbnailProps = {
  media: Pick<TMedia, 'imageName' | 'mimeType'>;
  /** What the image shows, for screen readers. */
  alt: string;
  width?: number;
  height?: number;
  testId?: string;
};

/** A small preview of a stored file: the image itself, or a PDF icon (a PDF is not fetched for this). */
export const MediaThumbnail = ({ media, alt, width = 96, height = 96, testId }: TMediaThumbnailProps) => {
  const isPdf = isPdfMedia(media);
  const file = useMediaUrl(isPdf ? null : media.imageName);
  const frame = {
    width,
    height,
    borderRadius: 1,
    border: 1,
    borderColor: 'divider',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    overflow: 'hidden',
    bgcolor: 'background.default',
    flexShrink: 0,
  } as const;
  if (isPdf) {
    return (
      <Box sx={frame} role="img" aria-label={alt} data-testid={testId}>
        <PictureAsPdfIcon color="error" fontSize="large" />
      </Box>
    );
  }
  if (file.url) {
    return (
      <Box sx={frame} data-testid={testId}>
        <Box
          component="img"
          src={file.url}
          alt={alt}
          sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
        />
      </Box>
    );
  }
  if (file.error) {
    return (
      <Box sx={frame} role="img" aria-label={alt} data-testid={testId}>
        <BrokenImageIcon color="disabled" fontSize="large" />
      </Box>
    );
  }
  return <Skeleton variant="rounded" width={width} height={height} data-testid={testId} />;
};

type TMediaViewerDialogProps = {
  /** The file to show; null keeps the dialog closed. */
  media: Pick<TMedia, 'imageName' | 'mimeType'> | null;
  title: string;
  onClose: () => void;
};

/**
 * Shows a stored file full width: an image inline, a PDF as Open (a new tab) and Download links.
 * The file is fetched with the API headers (useMediaUrl) and its object URL lives while the
 * dialog is open.
 */
export const MediaViewerDialog = ({ media, title, onClose }: TMediaViewerDialogProps) => {
  const titleId = useId();
  return (
    <Dialog open={media !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {media ? <MediaViewerBody media={media} title={title} onClose={onClose} /> : null}
    </Dialog>
  );
};

const MediaViewerBody = ({
  media,
  title,
  onClose,
}: {
  media: Pick<TMedia, 'imageName' | 'mimeType'>;
  title: string;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const file = useMediaUrl(media.imageName);
  const isPdf = isPdfMedia(media);
  const renderFile = () => {
    if (file.error) return <LoadError message={t('customerMedia.loadFileFailed')} onRetry={file.retry} />;
    if (!file.url) return <Skeleton variant="rounded" height={240} />;
    if (isPdf) {
      return (
        <Stack spacing={1} sx={{ alignItems: 'center', py: 2 }}>
          <PictureAsPdfIcon color="error" sx={{ fontSize: 56 }} />
          <Typography variant="body2">{t('customerMedia.pdf')}</Typography>
        </Stack>
      );
    }
    return (
      <Box
        component="img"
        src={file.url}
        alt={title}
        sx={{ display: 'block', maxWidth: '100%', maxHeight: '70vh', mx: 'auto' }}
        data-testid="media-viewer-image"
      />
    );
  };
  return (
    <>
      <DialogContent>{renderFile()}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {file.url && isPdf ? (
          <Button href={file.url} target="_blank" rel="noopener" data-testid="media-viewer-open">
            {t('customerMedia.openPdf')}
          </Button>
        ) : null}
        {file.url ? (
          <Button href={file.url} download={fileNameOf(media)} data-testid="media-viewer-download">
            {t('customerMedia.download')}
          </Button>
        ) : null}
        <Button variant="contained" onClick={onClose} data-testid="media-viewer-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </>
  );
};
