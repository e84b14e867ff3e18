import ConstructionIcon from '@mui/icons-material/Construction';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../components/page-header';
import type { TPageTitleKey } from '../lib/i18n';
import { appPaths } from '../lib/paths';

/**
 * A spec §2 screen that a later release builds: its title and a plain "coming soon" notice, so a
 * link to it never ends on an error. One component for all of them, told which title to show.
 */
export const ComingSoonPage = ({ titleKey }: { titleKey: TPageTitleKey }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Card data-testid="coming-soon">
        <CardContent>
          <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 3 }}>
            <ConstructionIcon color="action" sx={{ fontSize: 56 }} />
            <Chip color="secondary" label={t('comingSoon.badge')} data-testid="coming-soon-badge" />
            <Typography color="textSecondary">{t('comingSoon.body')}</Typography>
            <Button
              variant="contained"
              onClick={() => navigate(appPaths.dashboard.href())}
              data-testid="coming-soon-home"
            >
              {t('comingSoon.home')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </>
  );
};
