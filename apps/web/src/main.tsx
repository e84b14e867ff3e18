// The Noto faces of the ten languages, bundled with the app (the theme's font stack uses them).
import './app/theme/fonts.css';
import { startSignInLight, startsLight } from './app/sign-in-start';
import { isSignedIn } from './lib/auth-storage';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** The app's module (MUI, router, store, i18next, every screen's routes): loaded once. */
const loadApp = () => import('./app/full-app');
const startApp = () => void loadApp().then(({ mountFullApp }) => mountFullApp(container));

// Issue 28: the sign-in screens paint first, without the app; every other screen starts the app.
if (startsLight(window.location, isSignedIn())) void startSignInLight(container, loadApp, startApp);
else startApp();
