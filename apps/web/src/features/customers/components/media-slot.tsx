import type { TMedia } from '@kisht/domain/media/media.schema';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { MediaThumbnail } from './media-preview';

type TMediaSlotProps = {
  /** The stored file, or null when there is none yet. */
  media: TMedia | null;
  /** What the file is ("Customer photo"): the thumbnail's name and the view button's. */
  label: string;
  /** Opens the file full size. */
  onView: (media: TMedia) => void;
  /** The button that adds or replaces the file. */
  action: ReactNode;
  testId: string;
};

/**
 * One file of a customer (photo, invoice, a signature): its thumbnail (a button that opens it)
 * with when it was added, or "Not added yet", and the button that adds or replaces it.
 */
export const MediaSlot = ({ media, label, onView, action, testId }: TMediaSlotProps) => {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid={testId}>
      {media ? (
        <ButtonBase
          onClick={() => onView(media)}
          aria-label={t('customerMedia.viewNamed', { name: label })}
          sx={{ borderRadius: 1 }}
          data-testid={`${testId}-view`}
        >
          <MediaThumbnail media={media} alt={label} testId={`${testId}-thumbnail`} />
        </ButtonBase>
      ) : null}
      <Stack spacing={1} sx={{ flex: 1, minWidth: 0, alignItems: 'flex-start' }}>
        <Typography variant="body2" color="textSecondary" data-testid={`${testId}-status`}>
          {media
            ? t('customerMedia.addedAt', { date: formatDateTime(media.createdAt) })
            : t('customerMedia.notAdded')}
        </Typography>
        {action}
      </Stack>
    </Stack>
  );
};
