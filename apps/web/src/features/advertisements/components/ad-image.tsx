import type { TAdvertisement } from '@kisht/domain/advertisements/advertisements.schema';
import { paths } from '@kisht/domain/paths';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useBlobUrl } from '../../../lib/http/use-blob-url';

/** An advertisement's image (fetched with the session's headers), or nothing when it has none. */
export const AdImage = ({ ad, maxHeight = 200 }: { ad: TAdvertisement; maxHeight?: number }) => {
  const image = useBlobUrl(
    ad.hasImage
      ? { url: paths.advertisements.image, params: { advertisement_id: ad.id }, version: ad.createdAt }
      : null,
  );
  if (!ad.hasImage || image.error) return null;
  if (!image.url) return <Skeleton variant="rounded" height={maxHeight / 2} />;
  return (
    <Box
      component="img"
      src={image.url}
      alt={ad.title}
      data-testid={`ad-image-${ad.id}`}
      sx={{ display: 'block', width: '100%', maxHeight, objectFit: 'contain', borderRadius: 1 }}
    />
  );
};
