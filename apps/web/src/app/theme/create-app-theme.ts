import type { TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import type { Theme } from '@mui/material/styles';
import { createTheme, decomposeColor } from '@mui/material/styles';
import type { TLanguage } from '../../lib/i18n';
import { FALLBACK_LANGUAGE } from '../../lib/i18n';

/** Kisht's own colours, used until the organisation's config arrives or when it is unusable. */
export const DEFAULT_PRIMARY_COLOR = '#1f4fd1';
export const DEFAULT_SECONDARY_COLOR = '#f08a24';

/**
 * The Noto family (app/theme/fonts.css) of each language's script; Latin languages have none of
 * their own and use Noto Sans.
 */
export const SCRIPT_FONT_FAMILIES = {
  en: null,
  sp: null,
  hn: 'Noto Sans Devanagari',
  mr: 'Noto Sans Devanagari',
  bd: 'Noto Sans Bengali',
  gj: 'Noto Sans Gujarati',
  kn: 'Noto Sans Kannada',
  pp: 'Noto Sans Gurmukhi',
  tg: 'Noto Sans Telugu',
  tm: 'Noto Sans Tamil',
} as const satisfies Record<TLanguage, string | null>;

/** Every bundled script family, in a fixed order. */
const SCRIPT_FAMILIES = [...new Set(Object.values(SCRIPT_FONT_FAMILIES).filter((family) => family !== null))];

/** The phone's own fonts, for any character the bundled faces do not cover. */
const SYSTEM_FONT_STACK = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
];

/**
 * The font stack for a language: the bundled Noto faces before the phone's fonts, so every script
 * renders the same on every phone and none depends on the phone having a font for it (issue 12:
 * Tamil showed as empty boxes). The language's own script comes first: characters several script
 * subsets share (the danda ।, ZWJ/ZWNJ, ₹) then come from the face already loaded for the page
 * instead of downloading another script's. Each face's unicode-range keeps the browser from
 * downloading faces for scripts the page does not show.
 */
export const fontStackFor = (language: TLanguage = FALLBACK_LANGUAGE): string => {
  const own = SCRIPT_FONT_FAMILIES[language];
  const families = [
    ...(own ? [own] : []),
    'Noto Sans',
    ...SCRIPT_FAMILIES.filter((family) => family !== own),
  ];
  return [...families.map((family) => `"${family}"`), ...SYSTEM_FONT_STACK].join(',');
};

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
