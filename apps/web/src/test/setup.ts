import { configure } from '@testing-library/react';

// Screens render a lot at once in jsdom; on a busy two-core machine (CI runs four test projects
// side by side) a first paint or a submit can take over the default 1 s of findBy*/waitFor.
configure({ asyncUtilTimeout: 5_000 });
