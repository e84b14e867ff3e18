import CloseIcon from '@mui/icons-material/Close';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { useGetCurrentAdvertisementQuery } from '../advertisements-api';
import { AdImage } from './ad-image';

/**
 * Whether the ad with this id is shown (spec §3 `showAd`): not when the user dismissed this very
 * ad (`showAd` '0' and `dismissedAdId` its id); a newer ad shows again.
 */
export const isAdShown = (adId: number, storage: Storage = localStorage): boolean =>
  !(
    storage.getItem(STORAGE_KEYS.showAd) === '0' &&
    storage.getItem(STORAGE_KEYS.dismissedAdId) === String(adId)
  );

/** Remembers that the user dismissed this ad: `showAd` '0' and the ad's id. */
export const dismissAd = (adId: number, storage: Storage = localStorage): void => {
  storage.setItem(STORAGE_KEYS.showAd, '0');
  storage.setItem(STORAGE_KEYS.dismissedAdId, String(adId));
};

/**
 * The dashboard's advertisement (issue 16): the retailer's own newest, or for a customer user
 * their retailer's newest, as a card with its image and text that the user can dismiss (spec §3
 * `showAd`); a newer ad shows again. Nothing while loading, on error or without an ad.
 */
export const CurrentAdCard = () => {
  const { t } = useTranslation();
  // Asked again when the dashboard opens: the retailer may have saved a newer ad meanwhile.
  const { data: ad } = useGetCurrentAdvertisementQuery(undefined, { refetchOnMountOrArgChange: true });
  const [dismissedId, setDismissedId] = useState<number | null>(null);
  if (!ad || dismissedId === ad.id || !isAdShown(ad.id)) return null;
  return (
    <Card data-testid="current-ad-card" sx={{ mb: 2 }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 1 }}>
          <Stack>
            <Typography variant="overline" color="textSecondary">
              {t('advertisements.card.label')}
            </Typography>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {ad.title}
            </Typography>
          </Stack>
          <IconButton
            aria-label={t('advertisements.card.dismiss')}
            data-testid="current-ad-dismiss"
            onClick={() => {
              dismissAd(ad.id);
              setDismissedId(ad.id);
            }}
          >
            <CloseIcon />
          </IconButton>
        </Stack>
        <Stack spacing={1}>
          <AdImage ad={ad} />
          {ad.text ? <Typography variant="body2">{ad.text}</Typography> : null}
        </Stack>
      </CardContent>
    </Card>
  );
};
