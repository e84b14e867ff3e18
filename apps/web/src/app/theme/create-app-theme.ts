import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import type { Theme } from '@mui/material/styles';
import { createTheme, decomposeColor } from '@mui/material/styles';
import { DEFAULT_PRIMARY_COLOR, DEFAULT_SECONDARY_COLOR, fontStackFor } from '../../lib/brand';
import type { TLanguage } from '../../lib/languages';

export {
  DEFAULT_PRIMARY_COLOR,
  DEFAULT_SECONDARY_COLOR,
  fontStackFor,
  SCRIPT_FONT_FAMILIES,
} from '../../lib/brand';

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
 * Text uses the bundled Noto faces with the language's script first (fontStackFor).
 */
export const createAppTheme = (
  theme?: TOrgAppConfig['theme'],
  options: { isCompact?: boolean; language?: TLanguage } = {},
): Theme =>
  createTheme({
    palette: {
      primary: { main: usableColor(theme?.primaryColor, DEFAULT_PRIMARY_COLOR) },
      secondary: { main: usableColor(theme?.secondaryColor, DEFAULT_SECONDARY_COLOR) },
      background: { default: '#f5f6fa', paper: '#ffffff' },
      // MUI's info (#0288d1) and warning (#ed6c02) under white text are 3.9:1 and 3.1:1; these reach
      // WCAG AA's 4.5:1 for the small text of chips and buttons (issue 28, axe color-contrast).
      info: { main: '#0277bd' },
      warning: { main: '#c25100' },
    },
    shape: { borderRadius: options.isCompact ? 6 : 12 },
    typography: {
      fontFamily: fontStackFor(options.language),
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
