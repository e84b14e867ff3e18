import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import type { Theme } from '@mui/material/styles';
import { createTheme, decomposeColor } from '@mui/material/styles';

/** Kisht's own colours, used until the organisation's config arrives or when it is unusable. */
export const DEFAULT_PRIMARY_COLOR = '#1f4fd1';
export const DEFAULT_SECONDARY_COLOR = '#f08a24';

const SYSTEM_FONT_STACK = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Noto Sans"',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

/** A colour MUI can work with, or the fallback: a bad white-label value must not break the app. */
const usableColor = (value: string | undefined, fallback: string): string => {
  if (!value) return fallback;
  try {
    decomposeColor(value);
    return value;
  } catch {
    return fallback;
  }
};

/** Component defaults of the 'compact' main layout (spec §1): denser lists, fields and bars. */
const COMPACT_COMPONENTS = {
  MuiList: { defaultProps: { dense: true } },
  MuiListItemButton: { defaultProps: { dense: true } },
  MuiToolbar: { defaultProps: { variant: 'dense' } },
  MuiTextField: { defaultProps: { fullWidth: true, size: 'small' } },
  MuiButton: { defaultProps: { disableElevation: true, size: 'small' } },
} as const;

/**
 * Builds the white-label MUI theme (spec §1) from the organisation's primary and secondary colours.
 * Mobile-first defaults: full-width fields, no upper-case buttons, rounded outlined cards. The
 * compact layout is denser: smaller corners, dense lists and toolbars, small fields and buttons.
 */
export const createAppTheme = (
  theme?: TOrgAppConfig['theme'],
  options: { isCompact?: boolean } = {},
): Theme =>
  createTheme({
    palette: {
      primary: { main: usableColor(theme?.primaryColor, DEFAULT_PRIMARY_COLOR) },
      secondary: { main: usableColor(theme?.secondaryColor, DEFAULT_SECONDARY_COLOR) },
      background: { default: '#f5f6fa', paper: '#ffffff' },
    },
    shape: { borderRadius: options.isCompact ? 6 : 12 },
    typography: {
      fontFamily: SYSTEM_FONT_STACK,
      button: { textTransform: 'none', fontWeight: 600 },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 700 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCard: { defaultProps: { variant: 'outlined' } },
      MuiTextField: { defaultProps: { fullWidth: true } },
      MuiAppBar: { defaultProps: { elevation: 0 } },
      ...(options.isCompact ? COMPACT_COMPONENTS : {}),
    },
  });
