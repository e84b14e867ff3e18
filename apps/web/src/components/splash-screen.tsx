import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/**
 * Spec §2: a splash screen shows initially, while translations and the organisation's config load.
 * It has no text because the translations are what it waits for.
 */
export const SplashScreen = () => (
  <Box
    data-testid="splash-screen"
    sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', bgcolor: 'background.default' }}
  >
    <CircularProgress aria-busy="true" />
  </Box>
);
