import type { TAdvertisement } from '@kisht/domain/advertisements/advertisements.schema';
import CampaignIcon from '@mui/icons-material/Campaign';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { formatDateTime } from '../../../lib/format';
import { useListAdvertisementsQuery } from '../advertisements-api';
import { AdImage } from '../components/ad-image';
import { AdSendProgress } from '../components/ad-send-progress';
import { ComposeAdCard } from '../components/compose-ad-card';
import { SendAdPanel } from '../components/send-ad-panel';

/** The query parameter holding the send whose progress is shown. */
export const SEND_ID_PARAM = 'send_id';

const AdRow = ({ ad, onSend }: { ad: TAdvertisement; onSend: () => void }) => {
  const { t } = useTranslation();
  const lastSend = ad.sends[0];
  return (
    <Card data-testid={`ad-row-${ad.id}`}>
      <CardContent>
        <Stack spacing={1}>
          <AdImage ad={ad} maxHeight={160} />
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {ad.title}
          </Typography>
          {ad.text ? <Typography variant="body2">{ad.text}</Typography> : null}
          <Typography variant="caption" color="textSecondary">
            {formatDateTime(ad.createdAt)}
            {lastSend
              ? ` · ${t('advertisements.list.lastSend', { done: lastSend.counts.done ?? 0, total: lastSend.total })}`
              : ''}
          </Typography>
          <Button
            variant="outlined"
            startIcon={<CampaignIcon />}
            onClick={onSend}
            data-testid={`ad-send-${ad.id}`}
          >
            {t('advertisements.list.send')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
};

/**
 * Spec §2 send_advertisement (issue 16): compose an ad (title, text, an image compressed per spec
 * §5) and save it; the list of own ads, newest first; "Send to customers" chooses whom (as
 * multiple_lock_unlock) and, once sent, the send's delivery progress, kept in the URL
 * (`?send_id=`) so a reload comes back to it.
 */
export const SendAdvertisementPage = () => {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const sendId = searchParams.get(SEND_ID_PARAM);
  const list = useListAdvertisementsQuery();
  const [sendingAd, setSendingAd] = useState<TAdvertisement | null>(null);

  const body = () => {
    if (sendId) {
      return (
        <AdSendProgress
          key={sendId}
          sendId={sendId}
          onDone={() => {
            setSearchParams({});
            void list.refetch();
          }}
        />
      );
    }
    if (sendingAd) {
      return (
        <SendAdPanel
          ad={sendingAd}
          onCancel={() => setSendingAd(null)}
          onSent={(id) => {
            setSendingAd(null);
            setSearchParams({ [SEND_ID_PARAM]: id });
          }}
        />
      );
    }
    return (
      <Stack spacing={2}>
        <ComposeAdCard onSaved={() => void list.refetch()} />
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, pt: 1 }}>
          {t('advertisements.list.title')}
        </Typography>
        {list.isLoading ? (
          <PageSkeleton />
        ) : !list.data ? (
          <LoadError message={list.error?.message} onRetry={list.refetch} />
        ) : list.data.length === 0 ? (
          <Typography variant="body2" color="textSecondary" data-testid="ad-list-empty">
            {t('advertisements.list.empty')}
          </Typography>
        ) : (
          list.data.map((ad) => <AdRow key={ad.id} ad={ad} onSend={() => setSendingAd(ad)} />)
        )}
      </Stack>
    );
  };

  return (
    <>
      <PageHeader title={t('pages.send_advertisement')} />
      {body()}
    </>
  );
};
