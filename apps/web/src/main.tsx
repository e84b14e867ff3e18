import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The Noto faces of the ten languages, bundled with the app (the theme's font stack uses them).
import './app/theme/fonts.css';
import { startApp } from './app/bootstrap';
import { AppProviders } from './app/providers';
import { store } from './app/store';
import { ORG_ID } from './lib/config';
import { initI18n } from './lib/i18n';

const translationsReady = initI18n();
void startApp({ store, orgId: ORG_ID, translationsReady });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders />
  </StrictMode>,
);
