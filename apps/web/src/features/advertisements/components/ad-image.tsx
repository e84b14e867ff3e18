import type { TAdvertisement } from '@kisht/domain/advertisements/advertisements.schema';
import type { advertisementsContract } from '@kisht/domain/contract/advertisements';
import { paths } from '@kisht/domain/paths';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { contractBlobSource } from '../../../lib/http/contract-download';
import { useBlobUrl } from '../../../lib/http/use-blob-url';

type TAdImageRoute = (typeof advertisementsContract)['image'];

/** An advertisement's image (fetched with the session's headers), or nothing when it has none. */
export const AdImage = ({ ad, maxHeight = 200 }: { ad: TAdvertisement; maxHeight?: number }) => {
  const image = useBlobUrl(
    ad.hasImage
      ? contractBlobSource<TAdImageRoute>(
          { path: paths.advertisements.image, method: 'GET' },
          { advertisement_id: ad.id },
          ad.createdAt,
        )
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
