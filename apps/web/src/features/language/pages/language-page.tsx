import CheckIcon from '@mui/icons-material/Check';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { PageHeader } from '../../../components/page-header';
import type { TLanguage } from '../../../lib/i18n';
import {
  currentLanguage,
  LANGUAGE_BCP47,
  LANGUAGE_NATIVE_NAMES,
  SUPPORTED_LANGUAGES,
} from '../../../lib/i18n';
import { setTopLoadingBar } from '../../../lib/ui-slice';

/**
 * Spec §1 language screen: the ten interface languages, each by its own name. A tap switches the
 * app at once (its translations load while the top bar shows) and the choice is remembered in the
 * i18next cookie and local storage `language`.
 */
export const LanguagePage = () => {
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const selected = currentLanguage(i18n);

  const handleSelect = async (language: TLanguage) => {
    if (language === selected) return;
    dispatch(setTopLoadingBar(true));
    try {
      // Loads the translations, then caches the choice (cookie via the detector; local storage and
      // <html lang> via lib/i18n's languageChanged listener).
      await i18n.changeLanguage(language);
    } finally {
      dispatch(setTopLoadingBar(false));
    }
  };

  return (
    <>
      <PageHeader title={t('language.title')} subtitle={t('language.subtitle')} />
      <Card>
        <List disablePadding aria-label={t('language.title')} data-testid="language-list">
          {SUPPORTED_LANGUAGES.map((language) => {
            const isSelected = language === selected;
            return (
              <ListItemButton
                key={language}
                divider
                selected={isSelected}
                aria-current={isSelected ? 'true' : undefined}
                onClick={() => void handleSelect(language)}
                data-testid={`language-option-${language}`}
              >
                <ListItemText
                  primary={LANGUAGE_NATIVE_NAMES[language]}
                  slotProps={{
                    primary: { lang: LANGUAGE_BCP47[language], sx: { fontWeight: isSelected ? 700 : 400 } },
                  }}
                />
                {isSelected ? (
                  <ListItemIcon sx={{ minWidth: 0 }}>
                    <CheckIcon color="primary" />
                  </ListItemIcon>
                ) : null}
              </ListItemButton>
            );
          })}
        </List>
      </Card>
    </>
  );
};
