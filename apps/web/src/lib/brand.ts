import { FALLBACK_LANGUAGE, type TLanguage } from './languages';

// The white label's colours and the fonts of each language, without MUI: the sign-in screens use
// them before MUI loads (issue 28); app/theme/create-app-theme.ts builds the MUI theme from them.

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

/**
 * A white-label colour the browser can paint, or the fallback: a bad value must not leave the
 * sign-in screens without colour (the app's MUI theme checks its own way, create-app-theme).
 */
export const usableCssColor = (value: string | undefined, fallback: string): string => {
  if (!value) return fallback;
  const canCheck = typeof CSS !== 'undefined' && typeof CSS.supports === 'function';
  return !canCheck || CSS.supports('color', value) ? value : fallback;
};
