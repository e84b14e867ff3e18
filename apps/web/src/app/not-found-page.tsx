import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { appPaths } from '../lib/paths';

/** Spec §2: an unknown route shows the text 'Not found'. */
export const NotFoundPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Box
      component="main"
      sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', textAlign: 'center', px: 3 }}
    >
      <Box>
        <Typography variant="h4" component="h1" gutterBottom>
          {t('notFound.title')}
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          {t('notFound.description')}
        </Typography>
        <Button variant="contained" onClick={() => navigate(appPaths.root.href())}>
          {t('notFound.home')}
        </Button>
      </Box>
    </Box>
  );
};
